#include "CVipsLoader.h"
#include <dlfcn.h>
#include <libheif/heif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libvips' enums as its headers define them (SiteImagesTests checks them against vips.h): the
// headers are not included so that nothing here links against libvips.
enum {
    SIZE_DOWN = 2,
    FAIL_ON_ERROR = 2,
    ACCESS_SEQUENTIAL = 1,
    FORMAT_UCHAR = 0,
    INTERPRETATION_sRGB = 22,
    HEIF_COMPRESSION_AV1 = 4,
    LOG_LEVEL_WARNING = 1 << 4,
    ABI = 42,
    // libvips' `effort` for AVIF (0-9); libaom's speed is 9 - effort.
    AVIF_EFFORT = 2,
};

typedef void (*LogFunc)(const char *domain, int level, const char *message, void *data);

static struct {
    void (*g_free)(void *);
    void *(*g_realloc)(void *, size_t);
    void (*error)(const char *, const char *, ...);
    void (*g_object_unref)(void *);
    unsigned (*g_log_set_handler)(const char *, int, LogFunc, void *);
    int (*version)(int);
    int (*init)(const char *);
    void (*concurrency_set)(int);
    void (*cache_set_max)(int);
    void (*cache_set_max_mem)(size_t);
    void (*cache_set_max_files)(int);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    int (*vector_isenabled)(void);
    void (*vector_set_enabled)(int);
    int (*get_width)(const VipsImage *);
    int (*get_height)(const VipsImage *);
    int (*get_bands)(const VipsImage *);
    int (*get_format)(const VipsImage *);
    int (*hasalpha)(VipsImage *);
    void *(*write_to_memory)(VipsImage *, size_t *);
    VipsImage *(*new_from_memory_copy)(const void *, size_t, int, int, int, int);
    VipsImage *(*copy_memory)(VipsImage *);
    int (*thumbnail_buffer)(void *, size_t, VipsImage **, int, ...);
    int (*jpegload_buffer)(void *, size_t, VipsImage **, ...);
    int (*thumbnail_image)(VipsImage *, VipsImage **, int, ...);
    int (*gaussblur)(VipsImage *, VipsImage **, double, ...);
    void *(*array_double_new)(const double *, int);
    void (*area_unref)(void *);
    int (*flatten)(VipsImage *, VipsImage **, ...);
    int (*colourspace)(VipsImage *, VipsImage **, int, ...);
    int (*cast)(VipsImage *, VipsImage **, int, ...);
    int (*jpegsave_buffer)(VipsImage *, void **, size_t *, ...);
    int (*pngsave_buffer)(VipsImage *, void **, size_t *, ...);
    int (*webpsave_buffer)(VipsImage *, void **, size_t *, ...);
    int (*heifsave_buffer)(VipsImage *, void **, size_t *, ...);
} v;

static char failure[512];

const char *sgv_start_failure(void) { return failure; }

// libvips' warnings (a tile it could not decode, a colour profile it ignored) are dropped: the
// errors that matter come back from the calls themselves.
static void ignore_log(const char *domain, int level, const char *message, void *data) {}

#define RESOLVE(field, name) \
    if (!(*(void **)&v.field = dlsym(lib, name))) { \
        snprintf(failure, sizeof failure, "libvips.so.%d has no %s", ABI, name); \
        return -1; \
    }

static int resolve(void *lib) {
    RESOLVE(g_free, "g_free") RESOLVE(g_realloc, "g_realloc") RESOLVE(error, "vips_error")
        RESOLVE(g_object_unref, "g_object_unref") RESOLVE(g_log_set_handler, "g_log_set_handler")
    RESOLVE(version, "vips_version") RESOLVE(init, "vips_init") RESOLVE(concurrency_set, "vips_concurrency_set")
    RESOLVE(cache_set_max, "vips_cache_set_max") RESOLVE(cache_set_max_mem, "vips_cache_set_max_mem")
    RESOLVE(cache_set_max_files, "vips_cache_set_max_files") RESOLVE(error_buffer, "vips_error_buffer")
    RESOLVE(error_clear, "vips_error_clear") RESOLVE(vector_isenabled, "vips_vector_isenabled")
    RESOLVE(vector_set_enabled, "vips_vector_set_enabled") RESOLVE(get_width, "vips_image_get_width")
    RESOLVE(get_height, "vips_image_get_height") RESOLVE(get_bands, "vips_image_get_bands")
    RESOLVE(get_format, "vips_image_get_format") RESOLVE(hasalpha, "vips_image_hasalpha")
    RESOLVE(write_to_memory, "vips_image_write_to_memory") RESOLVE(new_from_memory_copy,
        "vips_image_new_from_memory_copy")
    RESOLVE(copy_memory, "vips_image_copy_memory") RESOLVE(thumbnail_buffer, "vips_thumbnail_buffer")
    RESOLVE(jpegload_buffer, "vips_jpegload_buffer")
    RESOLVE(thumbnail_image, "vips_thumbnail_image") RESOLVE(gaussblur, "vips_gaussblur")
    RESOLVE(array_double_new, "vips_array_double_new") RESOLVE(area_unref, "vips_area_unref")
    RESOLVE(flatten, "vips_flatten") RESOLVE(colourspace, "vips_colourspace") RESOLVE(cast, "vips_cast")
    RESOLVE(jpegsave_buffer, "vips_jpegsave_buffer") RESOLVE(pngsave_buffer, "vips_pngsave_buffer")
    RESOLVE(webpsave_buffer, "vips_webpsave_buffer") RESOLVE(heifsave_buffer, "vips_heifsave_buffer")
    return 0;
}

int sgv_start(void) {
    // RTLD_GLOBAL: libvips loads its format modules (HEIF, for AVIF) with g_module_open, and
    // those resolve libvips' own symbols from the process' namespace.
    void *lib = dlopen("libvips.so.42", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        snprintf(failure, sizeof failure, "cannot load libvips (Debian: apt-get install libvips42): %s", dlerror());
        return -1;
    }
    if (resolve(lib) != 0) return -1;
    // VIPS_INIT's check: the library's ABI (current - age) must be the one these calls assume.
    if (v.version(3) - v.version(5) != ABI) {
        snprintf(failure, sizeof failure, "libvips has ABI %d, sitegen needs %d", v.version(3) - v.version(5), ABI);
        return -1;
    }
    v.g_log_set_handler("VIPS", LOG_LEVEL_WARNING, ignore_log, NULL);
    if (v.init("sitegen") != 0) {
        snprintf(failure, sizeof failure, "%s", v.error_buffer());
        return -1;
    }
    // No ORC run-time code generation: liborc 0.4.33 (Debian 12) crashed inside its generated
    // code when several threads resized at once (a segfault in a clean-clone test run); the C
    // paths cost about 8 % of a cold build of the example site, AVIF encoding being most of it.
    v.vector_set_enabled(0);
    // Each image on one thread (sitegen runs one per core) and no operation cache (every source
    // is seen once).
    v.concurrency_set(1);
    v.cache_set_max(0);
    v.cache_set_max_mem(0);
    v.cache_set_max_files(0);
    return 0;
}

const char *sgv_error_buffer(void) { return v.error_buffer(); }
void sgv_error_clear(void) { v.error_clear(); }
int sgv_vector_enabled(void) { return v.vector_isenabled(); }

int sgv_width(VipsImage *image) { return v.get_width(image); }
int sgv_height(VipsImage *image) { return v.get_height(image); }
int sgv_bands(VipsImage *image) { return v.get_bands(image); }
int sgv_has_alpha(VipsImage *image) { return v.hasalpha(image); }
int sgv_format(VipsImage *image) { return v.get_format(image); }
void sgv_unref(VipsImage *image) { v.g_object_unref(image); }
void sgv_free(void *memory) { v.g_free(memory); }

void *sgv_write_to_memory(VipsImage *image, size_t *length) { return v.write_to_memory(image, length); }
VipsImage *sgv_new_from_memory_copy(const void *data, size_t length, int width, int height, int bands, int format) {
    return v.new_from_memory_copy(data, length, width, height, bands, format);
}
VipsImage *sgv_copy_memory(VipsImage *image) { return v.copy_memory(image); }

int sgv_thumbnail_buffer(const void *buf, size_t len, int width, VipsImage **out) {
    return v.thumbnail_buffer((void *)buf, len, out, width, "height", 10000000, "size", SIZE_DOWN,
                              "no_rotate", 0, "option_string", "fail_on=error", NULL);
}

// A JPEG decoded `shrink` times smaller by libjpeg (its scaled IDCT), then resized the rest of the
// way like `sgv_thumbnail_buffer` (upright, in sRGB).
int sgv_thumbnail_jpeg(const void *buf, size_t len, int shrink, int width, VipsImage **out) {
    VipsImage *loaded = NULL;
    // libvips sizes a shrunk JPEG by whole division, and one shrunk to no row at all aborts the
    // process (a 135x5 file shrunk 8 times, found by fuzz/run.sh vips): the header says how far.
    if (v.jpegload_buffer((void *)buf, len, &loaded, "fail_on", FAIL_ON_ERROR, "access", ACCESS_SEQUENTIAL,
        NULL) != 0) return -1;
    int w = v.get_width(loaded), h = v.get_height(loaded);
    v.g_object_unref(loaded);
    while (shrink > 1 && (h / shrink < 1 || w / shrink < 1)) shrink /= 2;
    if (shrink == 1) return sgv_thumbnail_buffer(buf, len, width, out);
    // Sequential, as libvips' thumbnail opens it: a random-access load decodes the whole picture
    // into memory first (18 MB more for a 24 MP photo shrunk twice).
    if (v.jpegload_buffer((void *)buf, len, &loaded, "shrink", shrink, "fail_on", FAIL_ON_ERROR, "access",
        ACCESS_SEQUENTIAL, NULL) != 0) return -1;
    int r = v.thumbnail_image(loaded, out, width, "height", 10000000, "size", SIZE_DOWN, "no_rotate", 0, NULL);
    v.g_object_unref(loaded);
    return r;
}

int sgv_thumbnail_image(VipsImage *in, int width, VipsImage **out) {
    return v.thumbnail_image(in, out, width, "height", 10000000, "size", SIZE_DOWN, NULL);
}

int sgv_gaussblur(VipsImage *in, double sigma, VipsImage **out) { return v.gaussblur(in, out, sigma, NULL); }

int sgv_flatten(VipsImage *in, VipsImage **out) {
    double white[3] = {255, 255, 255};
    void *background = v.array_double_new(white, 3);
    int r = v.flatten(in, out, "background", background, NULL);
    v.area_unref(background);
    return r;
}

int sgv_srgb(VipsImage *in, VipsImage **out) { return v.colourspace(in, out, INTERPRETATION_sRGB, NULL); }
int sgv_cast_uchar(VipsImage *in, VipsImage **out) { return v.cast(in, out, FORMAT_UCHAR, NULL); }

int sgv_jpegsave(VipsImage *in, int q, int strip, void **buf, size_t *len) {
    return v.jpegsave_buffer(in, buf, len, "Q", q, "strip", strip, "optimize_coding", 1, "interlace", 1, NULL);
}

int sgv_pngsave(VipsImage *in, int strip, void **buf, size_t *len) {
    return v.pngsave_buffer(in, buf, len, "strip", strip, "compression", 9, NULL);
}

int sgv_webpsave(VipsImage *in, int q, int strip, void **buf, size_t *len) {
    return v.webpsave_buffer(in, buf, len, "Q", q, "strip", strip, "effort", 4, NULL);
}

// AVIF. libvips 8.14's saver cannot pass libaom's options, and libaom's intra block copy,
// which it turns on for pictures it takes for screen content (drawings, flat colours), took
// 10× the time and 3× the memory (1.8 s and 200 MB for one 1440×2160 picture of the example,
// for a file 7 % smaller): sitegen drives libheif itself, with libvips' settings (speed 9 -
// effort 2, 4:2:0 below quality 90, 8 bits) and intra block copy off. Metadata kept: libvips'
// saver, which writes EXIF, XMP and the colour profile.
static struct {
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    struct heif_error (*get_encoder_for_format)(struct heif_context *, enum heif_compression_format,
        struct heif_encoder **);
    void (*encoder_release)(struct heif_encoder *);
    struct heif_error (*set_lossy_quality)(struct heif_encoder *, int);
    struct heif_error (*set_parameter_integer)(struct heif_encoder *, const char *, int);
    struct heif_error (*set_parameter)(struct heif_encoder *, const char *, const char *);
    struct heif_error (*image_create)(int, int, enum heif_colorspace, enum heif_chroma, struct heif_image **);
    void (*image_release)(const struct heif_image *);
    struct heif_error (*add_plane)(struct heif_image *, enum heif_channel, int, int, int);
    uint8_t *(*get_plane)(struct heif_image *, enum heif_channel, int *);
    struct heif_encoding_options *(*options_alloc)(void);
    void (*options_free)(struct heif_encoding_options *);
    struct heif_error (*encode_image)(struct heif_context *, const struct heif_image *, struct heif_encoder *,
                                      const struct heif_encoding_options *, struct heif_image_handle **);
    struct heif_error (*context_write)(struct heif_context *, struct heif_writer *, void *);
} h;

static char heif_failure[256];
static pthread_once_t heif_once = PTHREAD_ONCE_INIT;

#define RESOLVE_HEIF(field, name) \
    if (!(*(void **)&h.field = dlsym(lib, name))) { \
        snprintf(heif_failure, sizeof heif_failure, "libheif.so.1 has no %s", name); \
        return; \
    }

static void load_heif(void) {
    void *lib = dlopen("libheif.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        snprintf(heif_failure, sizeof heif_failure,
            "cannot load libheif (Debian: apt-get install libheif1): %s", dlerror());
        return;
    }
    RESOLVE_HEIF(context_alloc, "heif_context_alloc") RESOLVE_HEIF(context_free, "heif_context_free")
    RESOLVE_HEIF(get_encoder_for_format, "heif_context_get_encoder_for_format") RESOLVE_HEIF(encoder_release,
        "heif_encoder_release")
    RESOLVE_HEIF(set_lossy_quality, "heif_encoder_set_lossy_quality") RESOLVE_HEIF(set_parameter_integer,
        "heif_encoder_set_parameter_integer")
    RESOLVE_HEIF(set_parameter, "heif_encoder_set_parameter") RESOLVE_HEIF(image_create, "heif_image_create")
    RESOLVE_HEIF(image_release, "heif_image_release") RESOLVE_HEIF(add_plane, "heif_image_add_plane")
    RESOLVE_HEIF(get_plane, "heif_image_get_plane") RESOLVE_HEIF(options_alloc, "heif_encoding_options_alloc")
    RESOLVE_HEIF(options_free, "heif_encoding_options_free") RESOLVE_HEIF(encode_image, "heif_context_encode_image")
    RESOLVE_HEIF(context_write, "heif_context_write")
}

/// The encoded file, grown in memory that `sgv_free` (g_free) releases.
struct heif_output { uint8_t *data; size_t length; };

static struct heif_error append_output(struct heif_context *ctx, const void *data, size_t size, void *userdata) {
    struct heif_output *out = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    uint8_t *grown = v.g_realloc(out->data, out->length + size);
    memcpy(grown + out->length, data, size);
    out->data = grown;
    out->length += size;
    return ok;
}

/// libheif's error as libvips' error text (the caller reads that); -1.
static int heif_failed(struct heif_error e) {
    v.error("heifsave", "%s", e.message ? e.message : "libheif gave no reason");
    return -1;
}

/// A picture copied into libheif's image, the encoder not made yet: its VipsImage may be dropped
/// before the encode, the process' largest allocation, runs.
struct sgv_avif_job { struct heif_image *image; int bands; };

static int start_heif(void) {
    pthread_once(&heif_once, load_heif);
    if (!heif_failure[0]) return 0;
    // Through libvips' own error text, as every other failure here.
    v.error("heifsave", "%s", heif_failure);
    return -1;
}

int sgv_avif_prepare(VipsImage *in, struct sgv_avif_job **out) {
    *out = NULL;
    if (start_heif()) return -1;
    int width = v.get_width(in), height = v.get_height(in), bands = v.get_bands(in);
    if (v.get_format(in) != FORMAT_UCHAR || (bands != 3 && bands != 4)) {
        v.error("heifsave", "%s", "sitegen encodes 8-bit RGB or RGBA only");
        return -1;
    }
    size_t size = 0;
    uint8_t *pixels = v.write_to_memory(in, &size);
    if (!pixels) return -1;
    struct heif_image *image = NULL;
    enum heif_chroma chroma = bands == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB;
    struct heif_error e = h.image_create(width, height, heif_colorspace_RGB, chroma, &image);
    if (!e.code) e = h.add_plane(image, heif_channel_interleaved, width, height, 8);
    if (e.code) {
        if (image) h.image_release(image);
        v.g_free(pixels);
        return heif_failed(e);
    }
    int stride = 0;
    uint8_t *plane = h.get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < height; y++) {
        memcpy(plane + (size_t)y * stride, pixels + (size_t)y * width * bands, (size_t)width * bands);
    }
    v.g_free(pixels);
    *out = malloc(sizeof **out);
    (*out)->image = image;
    (*out)->bands = bands;
    return 0;
}

void sgv_avif_discard(struct sgv_avif_job *job) {
    if (!job) return;
    h.image_release(job->image);
    free(job);
}

int sgv_avif_finish(struct sgv_avif_job *job, int q, void **buf, size_t *len) {
    struct heif_context *ctx = h.context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_encoding_options *options = NULL;
    struct heif_output out = {NULL, 0};
    int result = -1;
    struct heif_error e = h.get_encoder_for_format(ctx, heif_compression_AV1, &encoder);
    if (e.code) { heif_failed(e); goto done; }
    if ((e = h.set_lossy_quality(encoder, q)).code) { heif_failed(e); goto done; }
    if ((e = h.set_parameter_integer(encoder, "speed", 9 - AVIF_EFFORT)).code) { heif_failed(e); goto done; }
    if ((e = h.set_parameter(encoder, "chroma", q >= 90 ? "444" : "420")).code) { heif_failed(e); goto done; }
    // A libheif built without libaom's option passing refuses it: slower, never wrong.
    h.set_parameter(encoder, "aom:enable-intrabc", "0");
    options = h.options_alloc();
    options->save_alpha_channel = job->bands == 4;
    if ((e = h.encode_image(ctx, job->image, encoder, options, NULL)).code) { heif_failed(e); goto done; }
    struct heif_writer writer = {.writer_api_version = 1, .write = append_output};
    if ((e = h.context_write(ctx, &writer, &out)).code) { heif_failed(e); goto done; }
    *buf = out.data;
    *len = out.length;
    out.data = NULL;
    result = 0;
done:
    if (out.data) v.g_free(out.data);
    if (options) h.options_free(options);
    if (encoder) h.encoder_release(encoder);
    h.context_free(ctx);
    sgv_avif_discard(job);
    return result;
}

int sgv_avifsave(VipsImage *in, int q, int strip, void **buf, size_t *len) {
    if (!strip) {
        return v.heifsave_buffer(in, buf, len, "Q", q, "strip", 0, "compression", HEIF_COMPRESSION_AV1,
            "effort", AVIF_EFFORT, "bitdepth", 8, NULL);
    }
    struct sgv_avif_job *job = NULL;
    if (sgv_avif_prepare(in, &job)) return -1;
    return sgv_avif_finish(job, q, buf, len);
}

int sgv_assumed(const char *name) {
    if (!strcmp(name, "SIZE_DOWN")) return SIZE_DOWN;
    if (!strcmp(name, "FORMAT_UCHAR")) return FORMAT_UCHAR;
    if (!strcmp(name, "INTERPRETATION_sRGB")) return INTERPRETATION_sRGB;
    if (!strcmp(name, "HEIF_COMPRESSION_AV1")) return HEIF_COMPRESSION_AV1;
    if (!strcmp(name, "LOG_LEVEL_WARNING")) return LOG_LEVEL_WARNING;
    if (!strcmp(name, "FAIL_ON_ERROR")) return FAIL_ON_ERROR;
    if (!strcmp(name, "ACCESS_SEQUENTIAL")) return ACCESS_SEQUENTIAL;
    if (!strcmp(name, "ABI")) return ABI;
    return -1;
}

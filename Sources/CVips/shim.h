// libvips' C API for Swift. Its operations take optional arguments as NULL-terminated varargs,
// which Swift cannot call, so each call sitegen makes has a fixed-argument wrapper here.
#include <vips/vips.h>
#include <vips/vector.h>

/// Starts libvips once per process (VIPS_INIT is a macro Swift cannot see); 0 on success.
/// libvips' warnings (a tile it could not decode, a colour profile it ignored) are dropped: the
/// errors that matter come back from the calls themselves.
static void sg_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

/// Whether libvips generates vector code at run time (liborc).
static inline int sg_vips_vector_enabled(void) { return vips_vector_isenabled(); }

static inline int sg_vips_init(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, sg_ignore_log, NULL);
    int failed = VIPS_INIT("sitegen");
    // No ORC run-time code generation: liborc 0.4.33 (Debian 12) crashed inside its generated
    // code when several threads resized at once (a segfault in a clean-clone test run); the C
    // paths cost about 8 % of a cold build of the example site, AVIF encoding being most of it.
    if (!failed) vips_vector_set_enabled(FALSE);
    return failed;
}

/// Shrink-on-load to at most `width` wide (never enlarged), upright by the EXIF orientation,
/// through the embedded colour profile to sRGB (a file without one is taken as sRGB: converting
/// it through a profile anyway would dull saturated colours). `fail` makes a truncated or corrupt file an error instead of a grey band.
static inline int sg_thumbnail_buffer(const void *buf, size_t len, int width, VipsImage **out) {
    return vips_thumbnail_buffer((void *)buf, len, out, width, "height", 10000000, "size", VIPS_SIZE_DOWN,
                                 "no_rotate", FALSE, "option_string", "fail_on=error", NULL);
}

/// `in` resized to `width` wide (aspect kept) from an already decoded image.
static inline int sg_thumbnail_image(VipsImage *in, int width, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", 10000000, "size", VIPS_SIZE_DOWN, NULL);
}

static inline int sg_gaussblur(VipsImage *in, double sigma, VipsImage **out) {
    return vips_gaussblur(in, out, sigma, NULL);
}

/// Drops an alpha channel onto white (JPEG has none) and makes 8-bit sRGB.
static inline int sg_flatten(VipsImage *in, VipsImage **out) {
    double white[3] = {255, 255, 255};
    VipsArrayDouble *bg = vips_array_double_new(white, 3);
    int r = vips_flatten(in, out, "background", bg, NULL);
    vips_area_unref(VIPS_AREA(bg));
    return r;
}

static inline int sg_jpegsave(VipsImage *in, int q, int strip, void **buf, size_t *len) {
    return vips_jpegsave_buffer(in, buf, len, "Q", q, "strip", strip, "optimize_coding", TRUE, "interlace", TRUE, NULL);
}

static inline int sg_pngsave(VipsImage *in, int strip, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, "strip", strip, "compression", 9, NULL);
}

static inline int sg_webpsave(VipsImage *in, int q, int strip, void **buf, size_t *len) {
    return vips_webpsave_buffer(in, buf, len, "Q", q, "strip", strip, "effort", 4, NULL);
}

static inline int sg_avifsave(VipsImage *in, int q, int strip, void **buf, size_t *len) {
    return vips_heifsave_buffer(in, buf, len, "Q", q, "strip", strip, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
                                "effort", 2, "bitdepth", 8, NULL);
}

static inline void sg_unref(VipsImage *image) { g_object_unref(image); }

/// 8-bit sRGB (grey and 16-bit sources too), alpha kept.
static inline int sg_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

static inline int sg_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

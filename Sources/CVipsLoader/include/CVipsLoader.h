// libvips for Swift, loaded at run time: sitegen resolves libvips (libvips.so.42) with dlopen the
// first time it resizes an image, so a build or a `serve` that resizes nothing never maps the
// hundred libraries libvips depends on (about 19 ms of every start). libvips' operations take
// optional arguments as NULL-terminated varargs, which Swift cannot call: each call sitegen
// makes has a fixed-argument wrapper here.
#include <stddef.h>

/// An image of libvips (opaque here: sitegen only passes it between these calls).
typedef struct _VipsImage VipsImage;

/// Loads and starts libvips once per process, tuned for many images at once (one thread an
/// image, no operation cache); 0 on success, else -1 and `sgv_start_failure` says why.
int sgv_start(void);
const char *sgv_start_failure(void);

/// libvips' error text since the last `sgv_error_clear` (one buffer per process).
const char *sgv_error_buffer(void);
void sgv_error_clear(void);
/// Whether libvips generates vector code at run time (off: see the loader).
int sgv_vector_enabled(void);

int sgv_width(VipsImage *image);
int sgv_height(VipsImage *image);
int sgv_bands(VipsImage *image);
int sgv_has_alpha(VipsImage *image);
/// The band format (`VipsBandFormat`).
int sgv_format(VipsImage *image);
void sgv_unref(VipsImage *image);
void sgv_free(void *memory);

/// The pixels, computed now (g_free'd by `sgv_free`).
void *sgv_write_to_memory(VipsImage *image, size_t *length);
VipsImage *sgv_new_from_memory_copy(const void *data, size_t length, int width, int height, int bands, int format);
VipsImage *sgv_copy_memory(VipsImage *image);

/// Shrink-on-load to at most `width` wide (never enlarged), upright by the EXIF orientation,
/// through the embedded colour profile to sRGB; a truncated or corrupt file is an error.
int sgv_thumbnail_buffer(const void *buf, size_t len, int width, VipsImage **out);
int sgv_thumbnail_jpeg(const void *buf, size_t len, int shrink, int width, VipsImage **out);
/// `in` resized to `width` wide (aspect kept) from an already decoded image.
int sgv_thumbnail_image(VipsImage *in, int width, VipsImage **out);
int sgv_gaussblur(VipsImage *in, double sigma, VipsImage **out);
/// Drops an alpha channel onto white (JPEG has none).
int sgv_flatten(VipsImage *in, VipsImage **out);
/// sRGB (grey and 16-bit sources too), alpha kept.
int sgv_srgb(VipsImage *in, VipsImage **out);
int sgv_cast_uchar(VipsImage *in, VipsImage **out);

int sgv_jpegsave(VipsImage *in, int q, int strip, void **buf, size_t *len);
int sgv_pngsave(VipsImage *in, int strip, void **buf, size_t *len);
int sgv_webpsave(VipsImage *in, int q, int strip, void **buf, size_t *len);
int sgv_avifsave(VipsImage *in, int q, int strip, void **buf, size_t *len);

/// AVIF without metadata in two steps: `prepare` copies the pixels out (the image may be dropped
/// then), `finish` encodes them and frees the job, whether it succeeds or not; `discard` frees a
/// job not finished.
struct sgv_avif_job;
int sgv_avif_prepare(VipsImage *in, struct sgv_avif_job **out);
int sgv_avif_finish(struct sgv_avif_job *job, int q, void **buf, size_t *len);
void sgv_avif_discard(struct sgv_avif_job *job);

/// The values of libvips' enums this file passes without its headers, by name ("SIZE_DOWN",
/// "FORMAT_UCHAR", "INTERPRETATION_sRGB", "HEIF_COMPRESSION_AV1", "ABI"); -1 for another name.
/// A test compares them with the installed headers.
int sgv_assumed(const char *name);

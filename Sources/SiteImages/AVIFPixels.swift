import CVipsLoader
import Foundation

/// A picture's pixels copied out for the AV1 encoder (CVipsLoader's `sgv_avif_prepare`): the
/// picture may be dropped before the encode, whose buffers are a build's largest, runs.
/// Metadata is not kept (an AVIF with metadata is libvips' own save).
struct AVIFPixels: ~Copyable {
    private let job: OpaquePointer

    init(_ image: VipsHandle) throws(ImageFailure) {
        var job: OpaquePointer? = nil
        guard sgv_avif_prepare(image.pointer, &job) == 0, let job else {
            throw ImageFailure("cannot encode AVIF: \(Vips.takeError())")
        }
        self.job = job
    }

    deinit { sgv_avif_discard(job) }

    /// The AVIF file; the pixels are freed whether it is made or not.
    consuming func encode(quality: Int) throws(ImageFailure) -> Data {
        let job = self.job
        discard self  // `sgv_avif_finish` frees the job
        var buffer: UnsafeMutableRawPointer? = nil
        var length = 0
        guard sgv_avif_finish(job, Int32(min(100, max(1, quality))), &buffer, &length) == 0, let buffer else {
            throw ImageFailure("cannot encode AVIF: \(Vips.takeError())")
        }
        defer { sgv_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}

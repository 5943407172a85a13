/// JPEG: walks the marker segments from SOI to the first start-of-frame, picking up the Exif
/// orientation on the way, and stops there — the rest of the file is entropy-coded data.
enum JPEG {
    static func size(_ bytes: ByteView) throws(ProbeFailure) -> ImageSize {
        guard bytes.starts(with: [0xFF, 0xD8]) else { throw ProbeFailure("not a JPEG file: bad signature") }
        var orientation = 1
        var sawExif = false
        var offset = 2
        while true {
            guard let first = bytes.u8(offset) else { throw ProbeFailure("JPEG ends before its frame header") }
            guard first == 0xFF else {
                throw ProbeFailure("JPEG is corrupt: expected a marker at byte \(offset), found 0x\(hex(first))")
            }
            // Any number of 0xFF fill bytes may precede a marker code.
            var markerOffset = offset + 1
            while bytes.u8(markerOffset) == 0xFF { markerOffset += 1 }
            guard let marker = bytes.u8(markerOffset) else { throw ProbeFailure("JPEG ends before its frame header") }
            let segment = markerOffset + 1

            switch marker {
            case 0x01, 0xD0...0xD8:
                // Standalone markers (TEM, RSTn, a stray SOI) carry no length.
                offset = segment
                continue
            case 0xD9:
                throw ProbeFailure("JPEG ends (EOI marker) before its frame header")
            case 0xDA:
                throw ProbeFailure("JPEG has scan data before its frame header")
            default:
                break
            }

            guard let length = bytes.be16(segment) else { throw ProbeFailure("JPEG ends before its frame header") }
            guard length >= 2 else {
                throw ProbeFailure("JPEG is corrupt: segment 0xFF\(hex(marker)) at byte \(offset) has length \(length)")
            }

            // SOF0–SOF15 all share the frame header layout; C4 (DHT), C8 (JPG) and CC (DAC) sit in
            // that range but are tables, not frames.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                // Length (2), sample precision (1), lines (2), samples per line (2).
                guard let height = bytes.be16(segment + 3), let width = bytes.be16(segment + 5) else {
                    throw ProbeFailure("JPEG ends inside its frame header")
                }
                guard height > 0 else {
                    throw ProbeFailure("JPEG leaves its height to a DNL marker, which is not supported")
                }
                let swaps = (5...8).contains(orientation)
                return ImageSize(width: swaps ? height : width, height: swaps ? width : height)
            }

            if marker == 0xE1, !sawExif, let found = exifOrientation(bytes, segment: segment + 2, end: segment + length)
            {
                sawExif = true
                orientation = found
            }
            offset = segment + length
        }
    }

    /// The orientation tag (0x0112) of IFD0 in an APP1 Exif payload spanning `segment..<end`, or nil
    /// if the payload is not Exif or is malformed — a broken Exif block should not cost the image its size.
    static func exifOrientation(_ bytes: ByteView, segment: Int, end: Int) -> Int? {
        guard bytes.starts(with: Array("Exif\0\0".utf8), at: segment) else { return nil }
        let tiff = segment + 6
        let littleEndian: Bool
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00], at: tiff) {
            littleEndian = true
        } else if bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A], at: tiff) {
            littleEndian = false
        } else {
            return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at + 2 <= end else { return nil }
            return littleEndian ? bytes.le16(at) : bytes.be16(at)
        }
        func u32(_ at: Int) -> Int? {
            guard at + 4 <= end else { return nil }
            return littleEndian ? bytes.le32(at) : bytes.be32(at)
        }
        // Offsets are at most 2³²−1 and relative to the TIFF header, so the sums cannot overflow.
        guard let ifdOffset = u32(tiff + 4), let entryCount = u16(tiff + ifdOffset) else { return nil }
        let entries = tiff + ifdOffset + 2
        for index in 0..<entryCount {
            let entry = entries + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits left-aligned in the 4-byte value field.
            guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
            return (1...8).contains(value) ? value : nil
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}

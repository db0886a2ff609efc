#if WebServer
/// The page's icon: 16×16, drawn here (an ICO holding one 32-bit bitmap), so a tab shows it
/// and `/favicon.ico` is never a 404.
enum Favicon {
    static let ico: [UInt8] = {
        let size = 16
        var pixels: [UInt8] = []  // BGRA, bottom row first
        for row in (0..<size).reversed() {
            for column in 0..<size {
                // A blue rounded square with a white bar across: the page's accent colour.
                let x = Double(column) + 0.5, y = Double(row) + 0.5
                let dx = max(0, abs(x - 8) - 5), dy = max(0, abs(y - 8) - 5)
                let inside = dx * dx + dy * dy <= 9
                let bar = (7...8).contains(row) && (4...11).contains(column)
                if !inside {
                    pixels += [0, 0, 0, 0]
                } else if bar {
                    pixels += [255, 255, 255, 255]
                } else {
                    pixels += [0xDF, 0x60, 0x00, 255]
                }
            }
        }
        let mask = [UInt8](repeating: 0, count: size * 4)  // rows of 32 bits: all drawn by alpha
        let bitmapSize = 40 + pixels.count + mask.count
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
        var out: [UInt8] = le16(0) + le16(1) + le16(1)  // an icon file with one image
        out += [UInt8(size), UInt8(size), 0, 0] + le16(1) + le16(32) + le32(bitmapSize) + le32(6 + 16)
        out += le32(40) + le32(size) + le32(size * 2) + le16(1) + le16(32) + le32(0) + le32(pixels.count + mask.count) + le32(0) + le32(0) + le32(0) + le32(0)
        return out + pixels + mask
    }()
}
#endif

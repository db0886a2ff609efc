"""A small PNG reader (8-bit RGB/RGBA, not interlaced: what Chromium's screenshots are) and the
checks the end-to-end tests make on screenshots: a region is drawn (many colours), or holds
text (enough dark pixels on a light background)."""
import struct
import zlib


def decode(data):
    """Returns (width, height, rows) where rows[y] is a bytes object of RGB(A) pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {depth} {colour} {interlace}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + b) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows, channels


def region_stats(image, rect):
    """Distinct colours and the share of dark pixels in rect (x, y, w, h)."""
    width, height, rows, channels = image
    x0, y0 = max(0, int(rect[0])), max(0, int(rect[1]))
    x1, y1 = min(width, int(rect[0] + rect[2])), min(height, int(rect[1] + rect[3]))
    colours, dark, total = set(), 0, 0
    for y in range(y0, y1):
        row = rows[y]
        for x in range(x0, x1):
            r, g, b = row[x * channels:x * channels + 3]
            colours.add((r, g, b))
            total += 1
            if r + g + b < 500:
                dark += 1
    return len(colours), (dark / total if total else 0.0), total


def is_blank(image):
    """True if the whole screenshot is one colour (or nearly)."""
    colours, _, _ = region_stats(image, (0, 0, image[0], image[1]))
    return colours < 4

"""A small PNG reader (8-bit RGB or RGBA, not interlaced: what Chromium's screenshots are; zlib
alone, no imaging library) and what the end-to-end checks ask of a screenshot's regions: how
many colours, how much of it is not the background, how many dark (text) or red (error text)
pixels."""
import struct
import zlib

# The page's background (PageShell's --bg), and the grey an image box shows before it loads.
PAGE = (0xFB, 0xFB, 0xFD)
IMAGE_PLACEHOLDER = (0xE5, 0xE5, 0xEA)


class Screenshot:
    """A decoded PNG: `width`, `height`, and `rows` of RGB(A) bytes."""

    def __init__(self, png):
        assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        position, chunks, colour = 8, [], None
        while position < len(png):
            length, kind = struct.unpack(">I4s", png[position:position + 8])
            body = png[position + 8:position + 8 + length]
            position += 12 + length
            if kind == b"IHDR":
                self.width, self.height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG: depth {depth}, colour type {colour}"
            elif kind == b"IDAT":
                chunks.append(body)
            elif kind == b"IEND":
                break
        self.bpp = bpp = 3 if colour == 2 else 4
        raw = zlib.decompress(b"".join(chunks))
        stride = self.width * bpp
        previous = bytearray(stride)
        self.rows = []
        for y in range(self.height):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
            if kind == 1:    # Sub
                for i in range(bpp, stride):
                    line[i] = (line[i] + line[i - bpp]) & 255
            elif kind == 2:  # Up
                line = bytearray((a + b) & 255 for a, b in zip(line, previous))
            elif kind == 3:  # Average
                for i in range(stride):
                    line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + previous[i]) // 2) & 255
            elif kind == 4:  # Paeth
                for i in range(stride):
                    a = line[i - bpp] if i >= bpp else 0
                    b = previous[i]
                    c = previous[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            self.rows.append(bytes(line))
            previous = line

    def pixels(self, rect=None, step=1):
        """The (r, g, b) of every `step`-th pixel of `rect` (x, y, width, height; the whole image
        by default), clipped to the image."""
        x, y, w, h = rect or (0, 0, self.width, self.height)
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(self.width, int(x + w)), min(self.height, int(y + h))
        bpp = self.bpp
        for row in range(y0, y1, step):
            line = self.rows[row]
            for column in range(x0, x1, step):
                i = column * bpp
                yield line[i], line[i + 1], line[i + 2]

    def region(self, rect=None, step=1, background=PAGE):
        """What `rect` shows: `pixels`, distinct `colours`, the share `away` from `background`,
        and how many pixels are `dark` (text) or `red` (error text)."""
        count = away = dark = red = 0
        colours = set()
        br, bg, bb = background
        for r, g, b in self.pixels(rect, step):
            count += 1
            colours.add((r, g, b))
            if abs(r - br) + abs(g - bg) + abs(b - bb) > 40:
                away += 1
            if r + g + b < 330:
                dark += 1
            if r > 150 and g < 110 and b < 110:
                red += 1
        return {"pixels": count, "colours": len(colours), "away": away / count if count else 0.0, "dark": dark, "red": red}

    def is_blank(self):
        """Nearly one colour, or nearly all background: nothing was drawn."""
        whole = self.region(step=4)
        return whole["colours"] < 20 or whole["away"] <= 0.005

    def image_drawn(self, rect):
        """An image (a photo, a poster) is drawn in `rect`: it is mostly neither the page's
        background nor the grey of an image box still loading, and has a picture's many colours
        (not a broken image's icon and alt text)."""
        loading = self.region(rect, step=2, background=IMAGE_PLACEHOLDER)
        page = self.region(rect, step=2)
        return loading["colours"] >= 12 and loading["away"] > 0.8 and page["away"] > 0.8

import MVVM
import Signals

/// An image by URL, with the text that stands for it.
public struct Image: ElementConvertible {
    public let url: Live<String?>
    public let alt: Live<String>
    public let shape: ImageShape
    /// Whether the image shows even without a URL (a layer may draw a placeholder).
    public let showsWithoutURL: Bool

    public init(url: some LiveConvertible<String?>, alt: some LiveConvertible<String>, shape: ImageShape = .square, showsWithoutURL: Bool = false) {
        self.url = url.live
        self.alt = alt.live
        self.shape = shape
        self.showsWithoutURL = showsWithoutURL
    }

    public init(url: some LiveConvertible<String?>, alt: String, shape: ImageShape = .square, showsWithoutURL: Bool = false) {
        self.init(url: url, alt: Live.constant(alt), shape: shape, showsWithoutURL: showsWithoutURL)
    }

    public var element: Element { Element(self) }
}

/// How an image is shaped: a poster (2:3, portrait) or a photo (square).
public enum ImageShape: String, Sendable {
    case poster, square
}

extension Role {
    public static let image = Role(rawValue: "image")
}

extension Image: ElementKind {
    public var role: Role { .image }
    public var names: [String] { [alt.value] }
    public func plainLines(indent: String) -> [String] {
        [indent + "[image: \(alt.value)]" + (url.value.map { " \($0)" } ?? "")]
    }
    public func draw<Renderer: ElementRenderer>(with renderer: Renderer) -> Renderer.Drawn { renderer.draw(self) }
}

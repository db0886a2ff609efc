import ScreenKit

extension WebDrawing {
    /// An `<img>` of what ``ScreenRenderer/ImageSource`` loads for it, hidden while it has none.
    func draw(_ image: ScreenKit.Image) -> Element {
        let view = Image(source: "", description: image.alt.value, class: image.shape == .poster ? "poster-large" : "photo")
        let alt = image.alt, showsWithoutURL = image.showsWithoutURL, images = self.images
        image.url.signal.drive(during: view) { [weak view] url in
            let source = url != nil || showsWithoutURL
                ? images(ScreenRenderer.ImageRequest(url: url, alt: alt.value, key: alt.value, shape: image.shape, isThumbnail: false)) : nil
            view?.source = source ?? ""
            view?.isHidden = source == nil
        }
        return view
    }
}

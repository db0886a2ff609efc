import ScreenKit

extension WebDrawing {
    /// A list of rows (links where its rows lead somewhere), their checkboxes and buttons, its
    /// selection, paging and footer wired to the list's closures.
    func draw(_ list: ScreenKit.List) -> Element {
        let view = ListView(emptyText: list.emptyText.value, class: list.thumbnails.map { $0 == .poster ? "posters" : "photos" }, rowsAct: list.select != nil)
        ScreenRenderer.follow(list.emptyText, view, \.emptyText)
        let shape = list.thumbnails, images = self.images
        let buttons = list.rowButtons.map(\.title)
        let link = list.rowLink   // drawn only on rows that act (ListView's rule)
        list.rows.signal.drive(during: view) { [weak view] rows in
            view?.rows = rows.map { row in
                let image = shape.flatMap { shape in
                    images(ScreenRenderer.ImageRequest(url: row.imageURL, alt: row.imageAlt, key: row.id, shape: shape, isThumbnail: true))
                }
                // (No array and join per row: this runs for every row of every tab a change reaches.)
                let detail = row.detail.isEmpty ? row.trailing.nilIfEmpty : row.trailing.isEmpty ? row.detail : row.detail + " · " + row.trailing
                var shown = ListView.Row(key: row.id, title: row.title, detail: detail,
                                         image: image, imageDescription: row.imageAlt, checkbox: row.isOn, buttons: buttons)
                shown.link = link?(row).map(WebLocation.relativePath)
                return shown
            }
        }
        if let toggle = list.toggle {
            view.toggledRows.perform(during: view) { flip in toggle(flip.key, flip.isOn) }
        }
        let rowButtons = list.rowButtons
        if !rowButtons.isEmpty {
            view.rowButtonPresses.perform(during: view) { press in
                if rowButtons.indices.contains(press.button) { rowButtons[press.button].press(press.key) }
            }
        }
        if let select = list.select {
            view.chosen.perform(during: view) { index in select(index) }
        }
        if let loadMore = list.loadMore {
            ScreenRenderer.follow(list.hasMore, view, \.loadsMore)
            let hasMore = list.hasMore, isLoading = list.isLoading
            view.reachedEnd.perform(during: view) { _ in
                if hasMore.value && !isLoading.value { loadMore() }
            }
        }
        if let rowsOnScreen = list.rowsOnScreen {
            view.visibleRows.perform(during: view) { range in rowsOnScreen(range.lowerBound..<(range.upperBound + 1)) }
        }
        // Under the rows, as in the terminal: a page on its way, or why it failed with Try again.
        list.footer?.signal.bind(to: view, \.footer)
        if let retry = list.retry {
            view.retries.perform(during: view) { _ in retry() }
        }
        return view
    }
}

import ScreenKit

extension TerminalDrawing {
    /// A list that takes the rest of the screen; its rows, checkboxes, row keys, selection,
    /// paging and footer wired to the list's closures.
    func draw(_ list: ScreenKit.List) -> View {
        let view = ListView(emptyText: list.emptyText.value)
        view.heightPolicy = .fill
        list.emptyText.signal.bind(to: view, \.emptyText)
        list.rows.signal.map { rows in
            rows.map { row in
                ListView.Row(row.detail.isEmpty ? [row.title] : [row.title, row.detail], trailing: row.trailing.isEmpty ? nil : row.trailing, checkbox: row.isOn)
            }
        }.bind(to: view, \.rows)
        // A row's checkbox and buttons act on the row's id as the view model has it now.
        let rows = list.rows
        if let toggle = list.toggle {
            view.toggled.perform(during: view) { index in
                let current = rows.value
                if current.indices.contains(index), let isOn = current[index].isOn { toggle(current[index].id, !isOn) }
            }
        }
        for button in list.rowButtons {
            view.keyCommands[Key(button.shortcut)] = { [weak view] in
                guard let view else { return }
                let current = rows.value
                if current.indices.contains(view.selection) { button.press(current[view.selection].id) }
            }
        }
        if let select = list.select {
            view.chosen.perform(during: view) { index in select(index) }
        }
        if let loadMore = list.loadMore {
            let hasMore = list.hasMore, isLoading = list.isLoading
            view.reachedEnd.perform(during: view) { _ in
                if hasMore.value && !isLoading.value { loadMore() }
            }
        }
        // Under the rows: a page on its way, or why it failed (Enter there tries again).
        list.footer?.signal.bind(to: view, \.footer)
        if let retry = list.retry {
            view.retries.perform(during: view) { _ in retry() }
        }
        if let highlight = list.highlight {
            view.highlightChanges.perform(during: view) { index in highlight(index) }
        }
        if let rowsOnScreen = list.rowsOnScreen {
            view.visibleRows.perform(during: view) { range in rowsOnScreen(range) }
        }
        return view
    }
}

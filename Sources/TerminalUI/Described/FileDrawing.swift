import ScreenKit

extension TerminalDrawing {
    /// A path field (Enter reads the local file it names, under the field's rules, and adds it)
    /// above the files received (``FileList``: Delete removes one); the label above both (in a
    /// row, only the path field and the list); the message under them in red while it shows:
    /// what the last path was told, else the view model's own.
    func draw(_ field: ScreenKit.FileField) -> View {
        let path = TextField(placeholder: "path of a file; Enter adds it")
        let list = FileList(field.files.value)
        list.bind(to: field)
        path.submissions.perform(during: path) { [weak path, weak list] typed in
            let typed = TypedText.cleaned(typed)
            guard !typed.isEmpty else { return }
            switch field.receive(localPath: typed) {
            case .success:
                path?.text = ""
                list?.refuse("")
            case .failure(let refusal):
                list?.refuse(refusal.message)
            }
        }
        let said = message(list.message(of: field), of: path, use: field.use)
        let parts: [View] = inRow ? [path, list, said] : [Label(field.label), path, list, said]
        return ScreenRenderer.fitting(Stack(.vertical, parts))
    }
}

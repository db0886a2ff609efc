import MVVM
import ScreenKit
import Signals

// The screen of 'Styling a page' (Sources/WebUI/WebUI.docc/StylingAPage.md), as a user's file
// has it (ScreenKit, not WebUI). Checked against the article by WebHooksTests.

/// A note with a title, saved by a button.
@MainActor
final class NoteViewModel {
    let title = MutableProperty("")
    private(set) var saved: [String] = []

    func save() { saved.append(title.value) }
}

@MainActor
func noteScreen(_ note: NoteViewModel) -> Screen {
    Screen("Note") {
        TextField("Title", text: note.title)
            .webID("note-title")
        Button("Save") { note.save() }
            .webClass("wide")
            .webID("save")
            .accessibilityLabel("Save the note")
    }
}

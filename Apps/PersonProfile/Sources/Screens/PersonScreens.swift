import MVVM
import ScreenKit

/// The person app's screens, described once (PV-V): the terminal, the browser, plain text and
/// the headless tester draw them.
public enum PersonScreens {
    /// Registers the app's screens. The browser's is drawn only on the main actor (its view model
    /// is `@MainActor`): anywhere else it stops the program, saying so.
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(PersonBrowserViewModel.self, onMainActor: browser)
        registry.register(PersonDetailViewModel.self, detail)
        registry.register(PersonSettingsViewModel.self, settings)
    }

    /// PV-V: the highlighted person's name and birthdate (PV-VM1), the people (loading, or why
    /// the load failed, in their place; Retry after a failure); Enter opens a person.
    @MainActor
    public static func browser(_ viewModel: PersonBrowserViewModel) -> Screen {
        // The @Observable view model, observed as seed 000 observes with RACObserve.
        let current = Live.observing(viewModel, \.current)
        return Screen(viewModel.title) {
            VStack {
                Text(current.map { $0?.nameText ?? "" }, style: .headline)
                Text(current.map { $0.map { "Born " + $0.birthdateText } ?? "" })
                    .visible(when: viewModel.settings.showsBirthdays)
            }
            Button("Retry") { viewModel.load() }
                .visible(when: Live.observing(viewModel, \.errorText).map { $0 != nil })
            List(
                "People",
                rows: Live.observing(viewModel, \.people).map { people in
                    people.enumerated().map { index, person in
                        ListRow(id: String(index), title: person.person.firstName + " " + person.person.lastName)
                    }
                },
                emptyText: Live.observing(viewModel, \.statusText).map { $0 ?? "" },
                onSelect: { index in
                    viewModel.selectedIndex = index
                    viewModel.select(index: index)
                },
                onHighlight: { viewModel.selectedIndex = $0 }
            )
            .linkingRows { [$0.id] }   // a person is at /3
            Button("Settings") { viewModel.openSettings() }.linking(path: ["settings"])
        }
    }

    /// The settings: whether the people show their birthdays, and Back.
    public static func settings(_ viewModel: PersonSettingsViewModel) -> Screen {
        Screen(viewModel.title) {
            Toggle("Show birthdays", isOn: viewModel.settings.showsBirthdays)
            Button("Back") { viewModel.back() }
        }
    }

    /// PV-V: one person's fields, and Back.
    public static func detail(_ viewModel: PersonDetailViewModel) -> Screen {
        Screen(viewModel.title) {
            Facts([
                "Salutation": viewModel.salutationText,
                "First name": viewModel.firstNameText,
                "Last name": viewModel.lastNameText,
                "Born": viewModel.birthdateText,
            ])
            Button("Back") { viewModel.back() }
        }
    }
}


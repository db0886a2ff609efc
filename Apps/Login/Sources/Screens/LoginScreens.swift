import MVVM
import ScreenKit

/// The login app's screens, described once (LG-1, LG-2): the terminal, the browser, plain text
/// and the headless tester draw them.
public enum LoginScreens {
    /// Registers the app's screens.
    public static func register(in registry: ScreenRegistry<Screen>) {
        registry.register(LoginViewModel.self, login)
        registry.register(LoginSuccessViewModel.self, success)
        registry.register(LoginSignUpViewModel.self, signUp)
    }

    /// LG-1: user name, a masked password, each with its rule's message under it once used, in
    /// a form whose Login button is enabled with 3+ characters in each field and busy while
    /// signing in (Enter in either field logs in, or shows every message and focuses the first
    /// field that breaks its rule), and what went wrong.
    public static func login(_ viewModel: LoginViewModel) -> Screen {
        Screen(viewModel.title) {
            Form(submit: "Login", action: viewModel.login) {
                TextField("User name", text: viewModel.userName, placeholder: "3+ characters").message(viewModel.userNameMessage).contentType(.username)
                SecureField("Password", text: viewModel.password, placeholder: "3+ characters").message(viewModel.passwordMessage).contentType(.currentPassword)
            }
            HStack {
                Button("Create an account") { viewModel.createAccount() }
                Spinner("Signing in…", isActive: viewModel.isLoggingIn)
            }
            Text(viewModel.statusText, style: .error)
            // A server error is also an alert over the form.
            Alert(viewModel.errors.map { AlertMessage(title: "Login failed", message: $0) })
            Text("Try ada/lovelace (success), grace/hopper (needs verification), alan/turing (server down).", style: .secondary)
        }
    }

    /// A user name and a new password, each with its rule's message under it once used, in a
    /// form whose button is enabled while both hold; why it failed.
    public static func signUp(_ viewModel: LoginSignUpViewModel) -> Screen {
        Screen(viewModel.title) {
            Form(submit: "Create account", action: viewModel.signUp) {
                TextField("User name", text: viewModel.userName, placeholder: "3+ characters").message(viewModel.userNameMessage).contentType(.username)
                SecureField("Password", text: viewModel.password).message(viewModel.passwordMessage).contentType(.newPassword)
            }
            Text(viewModel.statusText, style: .error)
        }
    }

    /// LG-2: the user's name, never the password, and Back.
    public static func success(_ viewModel: LoginSuccessViewModel) -> Screen {
        Screen(viewModel.title) {
            Text(viewModel.greeting, style: .headline)
            Text(viewModel.userNameText)
            Button("Back") { viewModel.back() }
        }
    }
}

//! Entry point: install the crash panel, then mount the app. Nothing else.

fn main() {
    stack_lab::platform::install_panic_panel();
    leptos::mount::mount_to_body(stack_lab::app::App);
}

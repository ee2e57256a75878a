//! Entry point: install the crash panel, then start the app. Nothing else.

fn main() {
    stack_lab::platform::install_panic_panel();
    stack_lab::app::start();
}

//! What an attribute or a text of the page reads: a value derived from
//! signals, behind one type. Written as a closure, every reactive attribute
//! is a type of its own, and Leptos's code that creates and updates it is
//! compiled again for each one (the first Leptos build of the pages: a
//! 745 KB main module, 410 KB more than the hand renderer's); behind a
//! `Signal`, every attribute of a kind shares that code.

use leptos::prelude::*;

/// Text or an attribute's value; `None` leaves the attribute off.
pub type Text = Signal<Option<String>>;

pub fn text(f: impl Fn() -> Option<String> + Send + Sync + 'static) -> Text {
    Signal::derive(f)
}

/// Text that is always there.
pub fn words(f: impl Fn() -> String + Send + Sync + 'static) -> Signal<String> {
    Signal::derive(f)
}

/// A boolean attribute or property.
pub fn flag(f: impl Fn() -> bool + Send + Sync + 'static) -> Signal<bool> {
    Signal::derive(f)
}

//! The one renderer: element trees from `views` patched into the page, and
//! the events that come back from them.

pub mod events;
pub mod patch;

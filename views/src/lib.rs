//! Stack Lab's pictures: each demo's scene and controls as plain data.
//!
//! A demo's picture is a plain function of its model ([`live::View`]): a
//! [`scene::Scene`] of keyed shapes with semantic classes, and a list of
//! [`control::Control`]s. One renderer in the app draws any of them; the
//! figure export writes the same elements to a file; tests check them here,
//! natively, without a browser.
//!
//! Architecture invariant: this crate knows nothing of the web either. It
//! depends on the engine only; scenes hold no simulation logic, they read it.

pub mod control;
pub mod cpu;
pub mod draw;
pub mod excerpt;
pub mod export;
pub mod fabric;
pub mod gpu;
pub mod host;
pub mod journey;
pub mod knob;
pub mod layout;
pub mod lesson;
pub mod live;
pub mod memory;
pub mod net;
pub mod nic;
pub mod page;
pub mod room;
pub mod scene;
pub mod slot;

pub use control::{Control, Field, Handler, Input};
pub use layout::{Layout, NARROW_WIDTH};
pub use live::{build, build_for, open, Command, Frame, LiveDemo, Ui, View};
pub use room::Room;
pub use scene::{Anchor, Arrow, Cell, Figure, Item, Kind, List, Part, Scene, Shape, Size, Table};
pub use slot::Slot;

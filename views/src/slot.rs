//! The number a control or a clickable shape sends back to its demo.
//!
//! Its own home, because both the controls (`control`) and the pictures
//! (`scene`) carry one, and the demo adapter (`live`) hands them out: none of
//! the three should import another just for this type.

/// A command's number in the current frame.
pub type Slot = u32;

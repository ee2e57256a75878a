//! The screen a picture is laid out for. A phone held upright is about
//! 360–430 CSS px wide: a figure drawn 960 units wide would be shown there at
//! a third of its size (16-unit text at about 6 px) or cut off. So each
//! figure wider than [`NARROW_WIDTH`] has a second arrangement of the same
//! shapes for narrow screens; the page asks for it below
//! [`NARROW_SCREEN_PX`].

/// Which arrangement of a demo's figures to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// Laptops, projectors, tablets: figures up to 960 units wide.
    #[default]
    Wide,
    /// Phones: every figure at most [`NARROW_WIDTH`] units wide, so that on
    /// a 390-px screen it fills the width with 16-unit text at ≥ 13 px.
    Narrow,
}

/// The widest a figure may be in the narrow layout, in figure units.
pub const NARROW_WIDTH: f32 = 420.0;

/// Screens at most this many CSS pixels wide get the narrow layout.
pub const NARROW_SCREEN_PX: u32 = 600;

impl Layout {
    pub fn is_narrow(self) -> bool {
        self == Layout::Narrow
    }

    /// `wide` in the wide layout, `narrow` in the narrow one: for the
    /// figures whose arrangement differs only in a few numbers.
    pub fn pick<T>(self, wide: T, narrow: T) -> T {
        match self {
            Layout::Wide => wide,
            Layout::Narrow => narrow,
        }
    }

    /// The layout for a screen `px` CSS pixels wide.
    pub fn for_screen(px: f64) -> Layout {
        if px <= f64::from(NARROW_SCREEN_PX) {
            Layout::Narrow
        } else {
            Layout::Wide
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_get_the_narrow_layout_and_laptops_the_wide_one() {
        assert_eq!(Layout::for_screen(390.0), Layout::Narrow);
        assert_eq!(Layout::for_screen(600.0), Layout::Narrow);
        assert_eq!(Layout::for_screen(601.0), Layout::Wide);
        assert_eq!(Layout::for_screen(1024.0), Layout::Wide);
        assert_eq!(Layout::Narrow.pick(960.0, NARROW_WIDTH), NARROW_WIDTH);
    }
}

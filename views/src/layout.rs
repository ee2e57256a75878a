//! The screen a picture is laid out for. A phone held upright is about
//! 360–430 CSS px wide: a figure drawn 960 units wide would be shown there at
//! a third of its size (16-unit text at about 6 px) or cut off. So each
//! figure wider than [`NARROW_WIDTH`] has a second arrangement of the same
//! shapes for narrow columns. Which one a page draws is the page's rule
//! (`crate::room`): by the width the picture's column has.

/// Which arrangement of a demo's figures to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// Laptops, projectors, tablets held sideways: figures up to 960 units
    /// wide.
    #[default]
    Wide,
    /// Phones, tablets held upright, a column beside a lesson: every figure
    /// at most [`NARROW_WIDTH`] units wide, so that on a 390-px screen it
    /// fills the width with 16-unit text at ≥ 13 px.
    Narrow,
}

/// The widest a figure may be in the narrow layout, in figure units.
pub const NARROW_WIDTH: f32 = 420.0;

/// Frames (an embedded demo) at most this many CSS pixels wide get the
/// narrow layout: a frame's height, not its width, bounds its picture.
pub const NARROW_SCREEN_PX: u32 = 600;

/// The widest a figure is in the wide layout, in figure units.
pub const WIDE_WIDTH: f32 = 960.0;

/// The smallest text a figure draws, in figure units (`t-small` in
/// static/scene.css: axis ticks, footnotes).
pub const SMALLEST_TEXT_UNITS: f32 = 13.0;

/// How large small text may be drawn, in figure units. The page keeps
/// picture text at least 12 px on screen (14 px from 1280 px up:
/// static/app.css, `--text-floor`) by drawing it larger in figure units as
/// a figure is drawn smaller, up to this size: a 420-unit figure on a
/// 390-px phone is drawn at about 0.84 px a unit, so 13-unit text becomes
/// 14.3. Text that must fit a width (a line that wraps, a label slid
/// inside) is measured at this size (`draw::text::small_width`).
pub const SMALL_TEXT_DRAWN_UNITS: f32 = 15.0;

/// Presenter mode's promise: no text under this many CSS pixels, for the
/// back of a lecture hall.
pub const PRESENTING_TEXT_PX: f32 = 24.0;

/// What presenter mode leaves around a figure across the window: the page's
/// and the figure's padding, both sides, in CSS pixels (static/app.css,
/// `html.present`), with room to spare.
pub const PRESENTING_MARGIN_PX: f32 = 80.0;

/// In presenter mode, windows at least this wide draw the wide layout's
/// figures across the window; narrower ones the narrow layout's, which then
/// are drawn larger. Either way the smallest text is at least
/// [`PRESENTING_TEXT_PX`]: the widest wide figure needs this much room.
pub const PRESENTING_WIDE_PX: f32 =
    WIDE_WIDTH * PRESENTING_TEXT_PX / SMALLEST_TEXT_UNITS + PRESENTING_MARGIN_PX;

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

    /// The layout for a screen `px` CSS pixels wide in presenter mode.
    pub fn for_presenting(px: f64) -> Layout {
        if px < f64::from(PRESENTING_WIDE_PX) {
            Layout::Narrow
        } else {
            Layout::Wide
        }
    }

    /// The layout for a frame `px` CSS pixels wide.
    pub fn for_frame(px: f64) -> Layout {
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
    fn narrow_frames_get_the_narrow_layout_and_wide_ones_the_wide_one() {
        assert_eq!(Layout::for_frame(390.0), Layout::Narrow);
        assert_eq!(Layout::for_frame(600.0), Layout::Narrow);
        assert_eq!(Layout::for_frame(601.0), Layout::Wide);
        assert_eq!(Layout::for_frame(1024.0), Layout::Wide);
        assert_eq!(Layout::Narrow.pick(960.0, NARROW_WIDTH), NARROW_WIDTH);
    }

    #[test]
    fn presenting_keeps_the_smallest_text_at_24_px_from_1024_px_up() {
        let smallest = |layout: Layout, px: f32| {
            let units = layout.pick(WIDE_WIDTH, NARROW_WIDTH);
            SMALLEST_TEXT_UNITS * (px - PRESENTING_MARGIN_PX) / units
        };
        for px in [1024.0, 1280.0, 1366.0, 1600.0, 1920.0, 2560.0] {
            let layout = Layout::for_presenting(f64::from(px));
            assert!(
                smallest(layout, px) >= PRESENTING_TEXT_PX,
                "{px}: {layout:?}"
            );
        }
        assert_eq!(Layout::for_presenting(1024.0), Layout::Narrow);
        assert_eq!(Layout::for_presenting(1920.0), Layout::Wide);
    }
}

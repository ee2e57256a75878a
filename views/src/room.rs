//! The room a demo page has, and how it arranges itself in it: one column
//! or two, and which [`Layout`] its figures are drawn in. The figures'
//! layout follows the width their column really has (the page measures
//! it), not the window's: a wide figure is drawn only where its small text
//! can still be [`TEXT_FLOOR_PX`] on screen. So a laptop at 1024 px, which
//! drew 960-unit figures in a 640-px column with 10-px labels, now draws
//! them across one column, and a tablet held upright draws the narrow
//! layout's figures.

use crate::layout::{Layout, SMALL_TEXT_DRAWN_UNITS, WIDE_WIDTH};

/// The smallest picture text the page keeps below 1280 px, in CSS px
/// (static/app.css, `--text-floor`).
pub const TEXT_FLOOR_PX: f32 = 12.0;

/// What a figure's frame takes from its column's width: its padding and
/// border on both sides (static/app.css, `.scene-figure`: 0.6 rem and 1 px
/// at a 17-px root), rounded up.
pub const FIGURE_FRAME_PX: f32 = 24.0;

/// The narrowest column that draws the wide layout: a 960-unit figure in it
/// keeps its small text, grown to [`SMALL_TEXT_DRAWN_UNITS`], at
/// [`TEXT_FLOOR_PX`]. 792 px.
pub const WIDE_COLUMN_PX: f32 =
    WIDE_WIDTH * TEXT_FLOOR_PX / SMALL_TEXT_DRAWN_UNITS + FIGURE_FRAME_PX;

/// What the page leaves beside its content in one column: `main`'s padding
/// on both sides, at most 2 rem of a 17-px root (static/app.css). Only for
/// the first guess at the column's width, before it is measured.
pub const PAGE_MARGINS_PX: f32 = 68.0;

/// The picture's share of two columns: `2.6fr` against the controls'
/// `1fr` (static/app.css, `.demo-body`). The first guess again.
const PICTURE_SHARE: f64 = 2.6 / 3.6;

/// Windows this wide and more put the controls beside the picture: the
/// picture's column then has [`WIDE_COLUMN_PX`] (the picture's share of
/// what the margins, the 17-px gap and a classic 17-px scrollbar leave).
/// Narrower windows stack them,
/// the picture across the page, unless a lesson is open: its stop stands
/// beside the picture it is about down to
/// [`LESSON_BESIDE_FROM_PX`], and the picture takes the narrow layout.
pub const TWO_COLUMNS_FROM_PX: f32 = 1200.0;

/// The narrowest window whose open lesson stop stands beside the picture.
pub const LESSON_BESIDE_FROM_PX: f32 = 981.0;

/// Where a demo page stands.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Room {
    /// The window's width, CSS px.
    pub window_px: f64,
    /// The width of the picture's column, CSS px, as last measured; none
    /// before the page is drawn.
    pub column_px: Option<f64>,
    /// Presenter mode: the figures are drawn for the back of a hall.
    pub present: bool,
    /// In a frame (a slide, a course page): the frame's height, not its
    /// width, bounds the picture, so a wide frame keeps wide figures.
    pub framed: bool,
    /// A lesson's stop is open.
    pub lesson_open: bool,
}

impl Room {
    /// The controls below the picture rather than beside it.
    pub fn one_column(&self) -> bool {
        let px = self.window_px;
        if px < f64::from(LESSON_BESIDE_FROM_PX) {
            return true;
        }
        // Presenter mode stacks everything its own way (static/app.css).
        px < f64::from(TWO_COLUMNS_FROM_PX) && !self.lesson_open && !self.present
    }

    /// The picture column's width: as measured, or else as the window's
    /// width and the columns suggest.
    pub fn column_px(&self) -> f64 {
        self.column_px.unwrap_or_else(|| {
            let inside = self.window_px - f64::from(PAGE_MARGINS_PX);
            if self.one_column() {
                inside
            } else {
                inside * PICTURE_SHARE
            }
        })
    }

    /// The layout the figures are drawn in.
    pub fn layout(&self) -> Layout {
        if self.present {
            Layout::for_presenting(self.window_px)
        } else if self.framed {
            Layout::for_frame(self.window_px)
        } else if self.column_px() >= f64::from(WIDE_COLUMN_PX) {
            Layout::Wide
        } else {
            Layout::Narrow
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::NARROW_SCREEN_PX;

    fn at(window_px: f64) -> Room {
        Room {
            window_px,
            ..Room::default()
        }
    }

    #[test]
    fn a_wide_figure_is_drawn_only_where_its_small_text_keeps_the_floor() {
        assert_eq!(WIDE_COLUMN_PX, 792.0);
        let measured = |column_px| Room {
            column_px: Some(column_px),
            ..at(1024.0)
        };
        assert_eq!(measured(791.0).layout(), Layout::Narrow);
        assert_eq!(measured(792.0).layout(), Layout::Wide);
        // 960 units in what the frame leaves, small text at 15 units.
        let px = (792.0 - FIGURE_FRAME_PX) / WIDE_WIDTH * SMALL_TEXT_DRAWN_UNITS;
        assert!(px >= TEXT_FLOOR_PX, "{px}");
    }

    #[test]
    fn the_first_guess_agrees_with_the_columns() {
        // A phone, a tablet upright, a laptop in one column, the smallest
        // two columns, a projector with a lesson open.
        assert_eq!(at(390.0).layout(), Layout::Narrow);
        assert_eq!(at(768.0).layout(), Layout::Narrow);
        assert!(at(1024.0).one_column());
        assert_eq!(at(1024.0).layout(), Layout::Wide);
        assert!(at(1199.0).one_column());
        assert!(!at(1200.0).one_column());
        assert_eq!(at(1200.0).layout(), Layout::Wide);
        let lesson = Room {
            lesson_open: true,
            ..at(1024.0)
        };
        assert!(!lesson.one_column());
        assert_eq!(lesson.layout(), Layout::Narrow);
        assert!(Room {
            lesson_open: true,
            ..at(980.0)
        }
        .one_column());
    }

    #[test]
    fn two_columns_start_where_the_pictures_share_draws_wide() {
        let two = Room {
            column_px: None,
            ..at(f64::from(TWO_COLUMNS_FROM_PX))
        };
        // The gap between the columns and a scrollbar, 17 px each, out of
        // the picture's share.
        let column = two.column_px() - 2.0 * 17.0 * PICTURE_SHARE;
        assert!(column >= f64::from(WIDE_COLUMN_PX), "{column}");
    }

    #[test]
    fn a_frame_and_presenter_mode_keep_their_own_rules() {
        let frame = |px| Room {
            framed: true,
            column_px: Some(700.0),
            ..at(px)
        };
        assert_eq!(frame(800.0).layout(), Layout::Wide);
        assert_eq!(frame(f64::from(NARROW_SCREEN_PX)).layout(), Layout::Narrow);
        let present = Room {
            present: true,
            ..at(1920.0)
        };
        assert_eq!(present.layout(), Layout::for_presenting(1920.0));
        assert!(!Room {
            present: true,
            ..at(1024.0)
        }
        .one_column());
    }
}

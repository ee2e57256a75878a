//! A framed demo shows one figure at a time (`src/shell/figures.rs`): the
//! rules for which one, as plain data.
//!
//! Why one: a frame of 800×500, the size the README promises, leaves about
//! 330 px of height for the picture, and a picture of several figures is
//! 400–1,600 figure units tall. Shown whole in that height, /cpu/cache-
//! hierarchy's six figures would draw their text at about 3 px; one figure
//! at a time fits whole, and the rest are a press away.

use crate::scene::{Part, Scene};

/// The scene's figures: each one's key and accessible name, in order.
pub fn figures(scene: &Scene) -> Vec<(String, String)> {
    scene
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Figure(f) => Some((f.key.clone(), f.label.clone())),
            _ => None,
        })
        .collect()
}

/// The figure a link's `figure=N` (counted from 1) asks for among `count`,
/// as an index from 0; none asked for is the first. Else why not, and the
/// first is shown.
pub fn asked_figure(text: Option<&str>, count: usize) -> Result<usize, String> {
    let Some(text) = text else {
        return Ok(0);
    };
    let n = match (1..=2).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()) {
        true => text.parse::<usize>().unwrap_or(0),
        false => 0,
    };
    match count {
        _ if (1..=count).contains(&n) => Ok(n - 1),
        1 => Err("this picture has one figure".into()),
        _ => Err(format!("this picture has figures 1 to {count}")),
    }
}

/// The notice for a `figure=` that could not be followed.
pub fn figure_notice(error: &str) -> String {
    format!("This link's figure could not be shown: {error}. The first is shown.")
}

/// A figure's button's accessible name: its number, which the button
/// shows, then what the figure is.
pub fn figure_button_name(n: usize, label: &str) -> String {
    format!("Figure {n}: {label}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_asks_for_a_figure_by_its_number_and_anything_else_is_refused() {
        assert_eq!(asked_figure(None, 3), Ok(0));
        assert_eq!(asked_figure(Some("2"), 3), Ok(1));
        assert_eq!(asked_figure(Some("3"), 3), Ok(2));
        for bad in ["0", "4", "", "-1", "1.5", "x", "２", "99", "007", "<b>"] {
            assert_eq!(
                asked_figure(Some(bad), 3),
                Err("this picture has figures 1 to 3".into()),
                "{bad}"
            );
        }
        assert_eq!(
            asked_figure(Some("2"), 1),
            Err("this picture has one figure".into())
        );
    }

    #[test]
    fn a_figure_buttons_name_begins_with_what_it_shows() {
        // WCAG 2.5.3: the visible label, "2", starts the accessible name.
        assert!(figure_button_name(2, "The ring").starts_with("Figure 2"));
    }
}

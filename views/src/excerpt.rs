//! Errors shown at the line: a form whose error begins "Line N, column C:"
//! (the convention of every parser in `demos`) gets the offending line of
//! what was typed quoted under the message, with a caret under the column,
//! the way a compiler points at a mistake.

/// The message with the line it names quoted and pointed at, or `None` when
/// the message names no line that the text has.
pub fn point_at_line(message: &str, text: &str) -> Option<String> {
    let rest = message.strip_prefix("Line ")?;
    let (line, rest) = rest.split_once(", column ")?;
    let (col, _) = rest.split_once(':')?;
    let (line, col): (usize, usize) = (line.parse().ok()?, col.parse().ok()?);
    let shown = text.lines().nth(line.checked_sub(1)?)?;
    // The caret keeps the line's tabs so it lines up under any tab width;
    // a column past the end (a missing word) points just after the line.
    let under: String = shown
        .chars()
        .take(col.checked_sub(1)?)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let gutter = " ".repeat(line.to_string().len());
    Some(format!("{message}\n{line} │ {shown}\n{gutter} │ {under}^"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_sits_under_the_named_column() {
        let text = "name T\nthread Q x 1\nexists x=1";
        let shown = point_at_line("Line 2, column 8: `Q` is not an operation.", text).unwrap();
        assert_eq!(
            shown,
            "Line 2, column 8: `Q` is not an operation.\n2 │ thread Q x 1\n  │        ^"
        );
    }

    #[test]
    fn tabs_are_kept_so_the_caret_lines_up() {
        let shown = point_at_line("Line 1, column 3: bad.", "\tW q 1").unwrap();
        assert!(shown.ends_with("1 │ \tW q 1\n  │ \t ^"), "{shown:?}");
    }

    #[test]
    fn a_message_without_a_line_or_a_line_beyond_the_text_is_left_alone() {
        assert_eq!(point_at_line("The test is too long.", "x"), None);
        assert_eq!(
            point_at_line("Line 9, column 1: missing.", "one line"),
            None
        );
        assert_eq!(point_at_line("Line 0, column 1: zero.", "one line"), None);
        assert_eq!(point_at_line("Line x, column 1: no.", "one line"), None);
    }
}

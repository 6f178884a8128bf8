//! Colours: JSON Canvas has six presets and hex; other formats have names and hex.

/// Obsidian's preset colours, "1" to "6", as it draws them.
pub const PRESETS: [(&str, (u8, u8, u8)); 6] = [
    ("1", (0xfb, 0x46, 0x4c)),
    ("2", (0xe9, 0x97, 0x3f)),
    ("3", (0xe0, 0xde, 0x71)),
    ("4", (0x44, 0xcf, 0x6e)),
    ("5", (0x53, 0xdf, 0xdd)),
    ("6", (0xa8, 0x82, 0xff)),
];

/// Common colour names (CSS and X11 agree on these).
const NAMES: &[(&str, (u8, u8, u8))] = &[
    ("red", (255, 0, 0)),
    ("green", (0, 128, 0)),
    ("blue", (0, 0, 255)),
    ("yellow", (255, 255, 0)),
    ("orange", (255, 165, 0)),
    ("purple", (128, 0, 128)),
    ("cyan", (0, 255, 255)),
    ("magenta", (255, 0, 255)),
    ("pink", (255, 192, 203)),
    ("black", (0, 0, 0)),
    ("white", (255, 255, 255)),
    ("gray", (128, 128, 128)),
    ("grey", (128, 128, 128)),
    ("lightgray", (211, 211, 211)),
    ("lightgrey", (211, 211, 211)),
    ("lightblue", (173, 216, 230)),
    ("lightgreen", (144, 238, 144)),
    ("lightyellow", (255, 255, 224)),
    ("brown", (165, 42, 42)),
    ("gold", (255, 215, 0)),
    ("navy", (0, 0, 128)),
    ("teal", (0, 128, 128)),
    ("violet", (238, 130, 238)),
    ("salmon", (250, 128, 114)),
    ("khaki", (240, 230, 140)),
    ("coral", (255, 127, 80)),
    ("turquoise", (64, 224, 208)),
    ("crimson", (220, 20, 60)),
    ("lime", (0, 255, 0)),
    ("olive", (128, 128, 0)),
    ("maroon", (128, 0, 0)),
    ("orchid", (218, 112, 214)),
    ("skyblue", (135, 206, 235)),
    ("tomato", (255, 99, 71)),
    ("wheat", (245, 222, 179)),
];

fn parse_rgb(text: &str) -> Option<(u8, u8, u8)> {
    let t = text.trim().trim_matches('"').trim();
    if let Some(hex) = t.strip_prefix('#') {
        let digits: Vec<u8> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<Vec<u8>>>()?;
        return match digits.len() {
            3 | 4 => Some((digits[0] * 17, digits[1] * 17, digits[2] * 17)),
            6 | 8 => Some((
                digits[0] * 16 + digits[1],
                digits[2] * 16 + digits[3],
                digits[4] * 16 + digits[5],
            )),
            _ => None,
        };
    }
    let lower = t.to_ascii_lowercase();
    NAMES.iter().find(|(n, _)| *n == lower).map(|(_, rgb)| *rgb)
}

/// A source colour as a canvas colour: the preset when one is close, otherwise hex. `None`
/// when the text is not a colour this module knows.
pub fn to_canvas(text: &str) -> Option<String> {
    let (r, g, b) = parse_rgb(text)?;
    let dist = |(pr, pg, pb): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2);
        d(r, pr) + d(g, pg) + d(b, pb)
    };
    let (name, best) = PRESETS
        .iter()
        .map(|(n, rgb)| (*n, dist(*rgb)))
        .min_by_key(|(_, d)| *d)?;
    // Close enough that a person would call it the same colour.
    if best <= 40 * 40 {
        Some(name.to_owned())
    } else {
        Some(format!("#{r:02x}{g:02x}{b:02x}"))
    }
}

/// A canvas colour as hex, for formats without presets.
pub fn to_hex(canvas: &str) -> Option<String> {
    if let Some((_, (r, g, b))) = PRESETS.iter().find(|(n, _)| *n == canvas) {
        return Some(format!("#{r:02x}{g:02x}{b:02x}"));
    }
    parse_rgb(canvas).map(|(r, g, b)| format!("#{r:02x}{g:02x}{b:02x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_and_others_stay_hex() {
        for (n, _) in PRESETS {
            assert_eq!(to_canvas(&to_hex(n).unwrap()).as_deref(), Some(n));
        }
        assert_eq!(to_canvas("#f9f").as_deref(), Some("#ff99ff"));
        assert_eq!(to_canvas("red").as_deref(), Some("#ff0000"));
        assert_eq!(to_canvas("#FB464C").as_deref(), Some("1"));
        assert_eq!(to_canvas("nonsense"), None);
    }
}

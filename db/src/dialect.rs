//! The few places where PostgreSQL's SQL and SQLite's differ, for statements written by hand.

/// The few places where the two dialects differ.
pub(crate) struct Dialect {
    pub postgres: bool,
}

impl Dialect {
    pub fn seconds(&self, from: &str, to: &str) -> String {
        if self.postgres {
            format!("EXTRACT(EPOCH FROM ({to} - {from}))")
        } else {
            format!("((julianday({to}) - julianday({from})) * 86400.0)")
        }
    }

    /// `?` placeholders, numbered for PostgreSQL.
    pub fn sql(&self, text: &str) -> String {
        if !self.postgres {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len() + 8);
        let mut n = 0;
        for c in text.chars() {
            if c == '?' {
                n += 1;
                out.push_str(&format!("${n}"));
            } else {
                out.push(c);
            }
        }
        out
    }
}

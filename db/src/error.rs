//! The storage layer's one error type.

use diesel::result::{DatabaseErrorKind, Error as DieselError};

/// What can go wrong in storage, in the terms the service needs.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The database cannot be reached (down, restarting, pool exhausted).
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// A versioned write lost the race: the game is no longer at the version that was read.
    #[error("the game changed since it was read")]
    VersionConflict,
    /// A unique constraint refused the write (a name or key already taken).
    #[error("already exists: {0}")]
    Duplicate(String),
    /// No such row.
    #[error("not found")]
    NotFound,
    /// A write named a row that does not exist (a foreign key refused it).
    #[error("a referenced row does not exist: {0}")]
    MissingReference(String),
    /// Stored data that does not decode: a defect, never the client's fault.
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
    /// Any other database error.
    #[error("database error: {0}")]
    Other(String),
}

impl From<DieselError> for DbError {
    fn from(error: DieselError) -> DbError {
        match error {
            DieselError::NotFound => DbError::NotFound,
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                DbError::Duplicate(info.constraint_name().unwrap_or(info.message()).to_owned())
            }
            DieselError::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, info) => {
                DbError::MissingReference(
                    info.constraint_name().unwrap_or(info.message()).to_owned(),
                )
            }
            DieselError::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                info,
            ) => DbError::Unavailable(info.message().to_owned()),
            // A standby (the old primary after a switchover, or a node a multi-host URL should
            // have skipped), or a database an operator made read-only: nothing was written, and
            // the connection goes back to be closed, so the next one finds the primary.
            DieselError::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, info) => {
                DbError::Unavailable(format!("read-only: {}", info.message()))
            }
            // A serializable database (several distributed PostgreSQL-compatible ones) aborts a
            // transaction that lost a race and asks for a retry: nothing was written, so the
            // client may retry after a moment (503 with Retry-After).
            DieselError::DatabaseError(DatabaseErrorKind::SerializationFailure, info) => {
                DbError::Unavailable(format!("retry: {}", info.message()))
            }
            DieselError::DatabaseError(_, info) if is_unavailable_message(info.message()) => {
                DbError::Unavailable(info.message().to_owned())
            }
            DieselError::BrokenTransactionManager => {
                DbError::Unavailable("the connection's transaction state is broken".to_owned())
            }
            other => DbError::Other(other.to_string()),
        }
    }
}

impl From<r2d2::Error> for DbError {
    fn from(error: r2d2::Error) -> DbError {
        DbError::Unavailable(error.to_string())
    }
}

impl From<serde_json::Error> for DbError {
    fn from(error: serde_json::Error) -> DbError {
        DbError::Corrupt(error.to_string())
    }
}

/// Messages of errors that mean "the server went away" rather than "the query was wrong".
fn is_unavailable_message(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    [
        "server closed the connection",
        "terminating connection",
        "connection refused",
        "could not connect",
        "the database system is shutting down",
        "the database system is starting up",
        "database is locked",
        "no connection to the server",
        // PostgreSQL in recovery, or restarting after a crash.
        "the database system is in recovery mode",
        "the database system is not yet accepting connections",
        "during recovery",
        // A full disk (PostgreSQL `disk_full`, SQLite `SQLITE_FULL`) and a file that cannot be
        // written: nothing was written, and writes work again once space returns.
        "no space left on device",
        "could not extend file",
        "database or disk is full",
        "attempt to write a readonly database",
        "disk i/o error",
    ]
    .iter()
    .any(|needle| lower.contains(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Info(&'static str);

    impl diesel::result::DatabaseErrorInformation for Info {
        fn message(&self) -> &str {
            self.0
        }
        fn details(&self) -> Option<&str> {
            None
        }
        fn hint(&self) -> Option<&str> {
            None
        }
        fn table_name(&self) -> Option<&str> {
            None
        }
        fn column_name(&self) -> Option<&str> {
            None
        }
        fn constraint_name(&self) -> Option<&str> {
            None
        }
        fn statement_position(&self) -> Option<i32> {
            None
        }
    }

    fn database_error(kind: DatabaseErrorKind, message: &'static str) -> DbError {
        DieselError::DatabaseError(kind, Box::new(Info(message))).into()
    }

    #[test]
    fn transient_failures_are_unavailable_and_the_rest_are_not() {
        assert!(matches!(
            database_error(
                DatabaseErrorKind::SerializationFailure,
                "could not serialize access"
            ),
            DbError::Unavailable(_)
        ));
        assert!(matches!(
            database_error(DatabaseErrorKind::Unknown, "terminating connection"),
            DbError::Unavailable(_)
        ));
        for (kind, message) in [
            (
                DatabaseErrorKind::ReadOnlyTransaction,
                "cannot execute INSERT in a read-only transaction",
            ),
            (DatabaseErrorKind::UnableToSendCommand, "connection lost"),
            (
                DatabaseErrorKind::Unknown,
                "could not extend file \"base/5/16384\": No space left on device",
            ),
            (DatabaseErrorKind::Unknown, "database or disk is full"),
            (DatabaseErrorKind::Unknown, "disk I/O error"),
            (
                DatabaseErrorKind::Unknown,
                "FATAL: the database system is in recovery mode",
            ),
        ] {
            assert!(
                matches!(database_error(kind, message), DbError::Unavailable(_)),
                "{message}"
            );
        }
        assert!(matches!(
            database_error(DatabaseErrorKind::UniqueViolation, "duplicate key"),
            DbError::Duplicate(_)
        ));
        assert!(matches!(
            database_error(DatabaseErrorKind::Unknown, "syntax error"),
            DbError::Other(_)
        ));
    }
}

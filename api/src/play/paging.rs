//! A listing's page and page size, checked.

use crate::error::ApiError;

/// A listing's page (from 1, default 1) and page size (1 to `max`, default `default`).
pub(super) fn paging(
    page: Option<i64>,
    per_page: Option<i64>,
    default: i64,
    max: i64,
) -> Result<(i64, i64), ApiError> {
    let page = page.unwrap_or(1);
    if !(1..=1_000_000).contains(&page) {
        return Err(ApiError::Invalid(
            "page must be from 1 to 1000000".to_owned(),
        ));
    }
    let per_page = per_page.unwrap_or(default);
    if !(1..=max).contains(&per_page) {
        return Err(ApiError::Invalid(format!(
            "per_page must be from 1 to {max}"
        )));
    }
    Ok((page, per_page))
}

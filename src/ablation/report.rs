//! Rendering an [`super::compare::Ablation`] (filled in below).

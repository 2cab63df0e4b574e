// Placeholder replaced by the validation rules of spec §5 (being written now).
export {};

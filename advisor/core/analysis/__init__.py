"""Questions asked of many estimates: ranges, sensitivity, break-even points and deadline sizing."""

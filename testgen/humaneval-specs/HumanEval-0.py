def valid(numbers, threshold):
    """No pair lies within float rounding of the threshold."""
    return all(abs(abs(a - b) - threshold) > 1e-6 for i, a in enumerate(numbers) for b in numbers[i + 1:])

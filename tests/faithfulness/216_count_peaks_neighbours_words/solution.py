def count_peaks(heights):
    peaks = 0
    for i in range(1, len(heights) - 1):
        if heights[i] > heights[i - 1] and heights[i] > heights[i + 1]:
            peaks += 1
    return peaks

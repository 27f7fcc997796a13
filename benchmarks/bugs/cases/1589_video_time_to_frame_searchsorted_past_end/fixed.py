import torch


class FrameTimestamps:
    def __init__(self, frame_spans, avg_fps):
        self.frame_spans = frame_spans
        self.avg_fps = avg_fps

    def __len__(self):
        return self.frame_spans.shape[0]

    def time_to_indices(self, time):
        available_times = self.frame_spans.mean(dim=-1)
        indices = torch.searchsorted(available_times, time)
        indices.clamp_(max=len(available_times) - 1)  # times past the last frame centre
        previous_is_closer = available_times[indices] - time > time - available_times[indices - 1]
        return indices.where((indices == 0) | ~previous_is_closer, indices - 1)


def sample_clip_frames(reader, segments, frames_per_segment):
    starts = torch.tensor([s for s, _ in segments])
    ends = torch.tensor([e for _, e in segments])
    steps = torch.linspace(0, 1, frames_per_segment)
    times = starts[:, None] + (ends - starts)[:, None] * steps[None, :]
    return reader.time_to_indices(times.flatten()).view(len(segments), frames_per_segment)


def load_reader(num_frames, fps):
    starts = torch.arange(num_frames, dtype=torch.float64) / fps
    jitter = torch.rand(num_frames, dtype=torch.float64) * 0.2 / fps
    spans = torch.stack([starts + jitter, starts + 1.0 / fps], dim=-1)
    return FrameTimestamps(spans, fps)


if __name__ == "__main__":
    torch.manual_seed(0)
    reader = load_reader(num_frames=16, fps=4.0)
    duration = len(reader) / reader.avg_fps
    segments = [(0.3, 1.7), (1.2, 2.9), (2.5, duration)]
    frame_ids = sample_clip_frames(reader, segments, frames_per_segment=4)
    centres = reader.frame_spans.mean(dim=-1).tolist()
    steps = torch.linspace(0, 1, 4)
    for seg, row in zip(segments, frame_ids.tolist()):
        for k, got in enumerate(row):
            t = (torch.tensor(seg[0]) + (seg[1] - seg[0]) * steps[k]).item()
            best = min(range(len(centres)), key=lambda i: (abs(centres[i] - t), -i))
            assert got == best, (seg, k, got, best)
    print("ok")

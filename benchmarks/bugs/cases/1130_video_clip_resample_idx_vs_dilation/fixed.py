import math

import torch


def unfold(tensor, size, step, dilation=1):
    o_stride = tensor.stride(0)
    numel = tensor.numel()
    new_stride = (step * o_stride, dilation * o_stride)
    new_size = ((numel - (dilation * (size - 1) + 1)) // step + 1, size)
    return torch.as_strided(tensor, new_size, new_stride)


class VideoClips:
    def __init__(self, video, video_pts, fps, num_frames, frame_rate):
        self.video = video
        self.fps = fps
        self.num_frames = num_frames
        self.frame_rate = frame_rate
        total = int(math.floor(video_pts.numel() * frame_rate / fps))
        resampled_pts = video_pts[self.resample_idx(total)].contiguous()
        self.clips = unfold(resampled_pts, num_frames, num_frames)

    def resample_idx(self, n):
        step = self.fps / self.frame_rate
        idxs = torch.arange(n, dtype=torch.float32) * step
        return idxs.floor().to(torch.int64)

    def get_clip(self, idx):
        clip_pts = self.clips[idx]
        return self.video.index_select(0, clip_pts), clip_pts


def reference_clips(n_frames, fps, num_frames, frame_rate):
    step = fps / frame_rate
    total = int(math.floor(n_frames * frame_rate / fps))
    pts = [int(math.floor(float(torch.tensor(j, dtype=torch.float32) * step))) for j in range(total)]
    return [pts[i : i + num_frames] for i in range(0, total - num_frames + 1, num_frames)]


if __name__ == "__main__":
    video = torch.arange(30, dtype=torch.float32).view(30, 1, 1, 1).expand(30, 3, 4, 4)
    video_pts = torch.arange(30)
    clips = VideoClips(video, video_pts, fps=30, num_frames=10, frame_rate=13.0)
    ref = reference_clips(30, 30, 10, 13.0)
    assert clips.clips.shape[0] == len(ref)
    for c, ref_pts in enumerate(ref):
        frames, pts = clips.get_clip(c)
        assert pts.tolist() == ref_pts
        for k, t in enumerate(ref_pts):
            assert torch.equal(frames[k], video[t])
    print("ok")

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
        dilation = max(int((fps + frame_rate - 1) // frame_rate), 1)
        self.clips = unfold(video_pts, num_frames, num_frames, dilation)

    def resample_video(self, window):
        step = self.fps / self.frame_rate
        if float(step).is_integer():
            return window[:: int(step)]
        idxs = torch.arange(self.num_frames, dtype=torch.float32) * step
        idxs = idxs.floor().to(torch.int64)
        return window[idxs]

    def get_clip(self, idx):
        clip_pts = self.clips[idx]
        window = self.video[clip_pts[0] : clip_pts[-1] + 1]
        return self.resample_video(window), clip_pts


if __name__ == "__main__":
    video = torch.arange(30, dtype=torch.float32).view(30, 1, 1, 1).expand(30, 3, 4, 4)
    video_pts = torch.arange(30)
    clips = VideoClips(video, video_pts, fps=30, num_frames=10, frame_rate=13.0)
    frames, pts = clips.get_clip(0)
    print("timestamps:", pts.tolist())
    print("frame ids :", frames[:, 0, 0, 0].long().tolist())

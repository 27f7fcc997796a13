import torch


class VideoClsDataset:
    """Decoded-video clip loader for Kinetics-style training.

    Args:
        videos: list of decoded videos, each a uint8 tensor of shape (T, H, W, C).
        clip_len: number of frames in a clip.
        frame_sample_rate: temporal stride between two sampled frames.
        num_segment: number of segments the video is split into.
    """

    def __init__(self, videos, clip_len=16, frame_sample_rate=4, num_segment=1, seed=0):
        self.videos = videos
        self.clip_len = clip_len
        self.frame_sample_rate = frame_sample_rate
        self.num_segment = num_segment
        self.generator = torch.Generator().manual_seed(seed)

    def sample_frame_indices(self, num_frames):
        """Returns the frame ids to decode, a LongTensor of shape (clip_len * num_segment,)."""
        converted_len = int(self.clip_len * self.frame_sample_rate)
        seg_len = num_frames // self.num_segment

        all_index = []
        for i in range(self.num_segment):
            if seg_len <= converted_len:
                index = torch.linspace(0, seg_len, seg_len // self.frame_sample_rate)
                index = torch.cat((index, torch.ones(self.clip_len - seg_len // self.frame_sample_rate) * seg_len))
                index = index.clamp(0, seg_len - 1).long()
            else:
                end_idx = int(torch.randint(converted_len, seg_len, (1,), generator=self.generator))
                str_idx = end_idx - converted_len
                index = torch.linspace(str_idx, end_idx, self.clip_len)
                index = index.clamp(str_idx, end_idx - 1).long()
            index = index + i * seg_len
            all_index.append(index)
        return torch.cat(all_index)

    def loadvideo(self, video):
        """Selects the clip frames of ``video`` (T, H, W, C); returns (clip_len * num_segment, H, W, C)."""
        all_index = self.sample_frame_indices(video.shape[0])
        buffer = video.index_select(0, all_index)
        return buffer

    def __getitem__(self, idx):
        return self.loadvideo(self.videos[idx])


if __name__ == "__main__":
    # every pixel of frame t holds the value t, so the clip shows which frames were read
    videos = [torch.arange(t, dtype=torch.uint8).view(t, 1, 1, 1).expand(t, 8, 8, 3).contiguous() for t in (90, 120)]
    dataset = VideoClsDataset(videos, clip_len=4, frame_sample_rate=6)
    for k in range(len(videos)):
        clip = dataset[k]
        frame_ids = clip[:, 0, 0, 0].long()
        print("frames:", frame_ids.tolist(), "strides:", torch.diff(frame_ids).tolist(), "requested stride:", dataset.frame_sample_rate)

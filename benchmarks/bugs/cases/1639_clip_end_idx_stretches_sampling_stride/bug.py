import random

import torch


def get_start_end_idx(video_size, clip_size, clip_idx, num_clips):
    """
    Sample a clip of size clip_size from a video of size video_size and return the
    indices of the first and last frame of the clip.

    Args:
        video_size (int): number of overall frames.
        clip_size (int): size of the clip to sample from the frames.
        clip_idx (int): -1 for random temporal jitter, otherwise the index of the
            uniformly spaced test clip.
        num_clips (int): number of uniformly spaced clips used at test time.
    Returns:
        start_idx (float): the start frame index.
        end_idx (float): the end frame index.
    """
    delta = max(video_size - clip_size, 0)
    if clip_idx == -1:
        start_idx = random.uniform(0, delta)
    else:
        start_idx = delta * clip_idx / num_clips
    end_idx = start_idx + clip_size - 1
    return start_idx, end_idx


def temporal_sampling(frames, start_idx, end_idx, num_samples):
    """
    Given the start and end frame index, sample num_samples frames between the start
    and end with equal interval.

    Args:
        frames (tensor): video frames, `num video frames` x `channel` x `height` x `width`.
        start_idx (float): index of the start frame.
        end_idx (float): index of the end frame.
        num_samples (int): number of frames to sample.
    Returns:
        frames (tensor): `num_samples` x `channel` x `height` x `width`.
    """
    index = torch.linspace(start_idx, end_idx, num_samples)
    index = torch.clamp(index, 0, frames.shape[0] - 1).long()
    return torch.index_select(frames, 0, index)


def decode_clip(frames, num_frames, sampling_rate, clip_idx, num_clips):
    """
    Take `num_frames` frames, `sampling_rate` frames apart, from a decoded video.

    Args:
        frames (tensor): `num video frames` x `channel` x `height` x `width`.
        num_frames (int): frames per clip fed to the network.
        sampling_rate (int): temporal stride between two sampled frames.
    Returns:
        clip (tensor): `num_frames` x `channel` x `height` x `width`.
    """
    clip_size = num_frames * sampling_rate
    start_idx, end_idx = get_start_end_idx(frames.shape[0], clip_size, clip_idx, num_clips)
    return temporal_sampling(frames, start_idx, end_idx, num_frames)


if __name__ == "__main__":
    num_video_frames = 300
    # frame t is filled with the value t so the sampled frame ids can be read back
    video = torch.arange(num_video_frames, dtype=torch.float32)
    video = video.view(-1, 1, 1, 1).expand(-1, 3, 8, 8).contiguous()
    clip = decode_clip(video, num_frames=4, sampling_rate=16, clip_idx=1, num_clips=3)
    ids = clip[:, 0, 0, 0].long().tolist()
    print("sampled frames:", ids)
    print("strides:", [b - a for a, b in zip(ids, ids[1:])], "(sampling_rate = 16)")

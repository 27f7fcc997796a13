from dataclasses import dataclass
from typing import List

import torch
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class IndexBasedSamplerArgs:
    sampler_type: str = "uniform"
    clips_per_video: int = 1
    frames_per_clip: int = 1
    video_frame_dilation: int = 1
    sample_start_index: int = 0
    sample_end_index: int = 1_000_000  # index of the last frame that may be sampled


def get_frames_at_indices(
    frames: Float[Tensor, "num_frames C H W"], frame_indices: Int[Tensor, " n"]
) -> Float[Tensor, "n C H W"]:
    return frames.index_select(0, frame_indices)


def get_clips_for_index_based_sampling(
    frames: Float[Tensor, "num_frames C H W"], args: IndexBasedSamplerArgs, generator: torch.Generator
) -> List[Float[Tensor, "frames_per_clip C H W"]]:
    num_frames = frames.shape[0]
    sample_start_index = max(0, args.sample_start_index)
    sample_end_index = (
        min(args.sample_end_index + 1, num_frames)
        - args.video_frame_dilation * args.frames_per_clip
    )

    if args.sampler_type == "random":
        clip_start_idxs = torch.randint(sample_start_index, sample_end_index, (args.clips_per_video,), generator=generator)
    elif args.sampler_type == "uniform":
        clip_start_idxs = torch.linspace(sample_start_index, sample_end_index, args.clips_per_video, dtype=torch.int32)
    else:
        raise ValueError(args.sampler_type)

    clips = []
    for clip_start_idx in clip_start_idxs.tolist():
        batch_indexes = torch.tensor(
            [clip_start_idx + i * args.video_frame_dilation for i in range(args.frames_per_clip)]
        )
        clips.append(get_frames_at_indices(frames, batch_indexes))
    return clips


if __name__ == "__main__":
    num_frames = 48
    # frame t is filled with the value t so the decoded clips show their frame ids
    frames = torch.arange(num_frames, dtype=torch.float32).view(-1, 1, 1, 1).expand(num_frames, 3, 4, 4)
    args = IndexBasedSamplerArgs(sampler_type="uniform", clips_per_video=3, frames_per_clip=4,
                                 sample_start_index=10, sample_end_index=29)
    clips = get_clips_for_index_based_sampling(frames, args, torch.Generator().manual_seed(0))
    last_start = args.sample_end_index + 1 - args.frames_per_clip * args.video_frame_dilation
    starts = [int(args.sample_start_index + k * (last_start - args.sample_start_index) / (args.clips_per_video - 1))
              for k in range(args.clips_per_video)]
    assert len(clips) == len(starts)
    for clip, s in zip(clips, starts):
        expected = [s + i * args.video_frame_dilation for i in range(args.frames_per_clip)]
        assert clip[:, 0, 0, 0].long().tolist() == expected, (clip[:, 0, 0, 0].tolist(), expected)
        assert all(args.sample_start_index <= f <= args.sample_end_index for f in expected)
    assert int(clips[-1][-1, 0, 0, 0]) == args.sample_end_index
    rnd = get_clips_for_index_based_sampling(
        frames, IndexBasedSamplerArgs("random", 5, 4, 1, 10, 29), torch.Generator().manual_seed(0))
    for clip in rnd:
        ids = clip[:, 0, 0, 0].long().tolist()
        assert 10 <= ids[0] and ids[-1] <= 29 and ids == list(range(ids[0], ids[0] + 4))
    print("ok")

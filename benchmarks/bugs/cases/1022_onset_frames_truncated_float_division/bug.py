import numpy as np
import torch
from torch.utils.data import Dataset


class OnsetDataset(Dataset):
    """Clips with annotated note onsets (in seconds) and a 10 Hz frame grid."""

    def __init__(self, clips, onsets_sec, hop_sec=0.1):
        self.clips = clips            # list of [T, F] feature tensors
        self.onsets_sec = onsets_sec  # list of float64 numpy arrays
        self.hop_sec = hop_sec

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        onsets = torch.from_numpy(self.onsets_sec[i])
        frames = (onsets / self.hop_sec).long()   # [K] frame index of each onset
        return self.clips[i], frames


def onset_logprob(frame_logits, frames):
    # frame_logits: [T, 2] (no-onset / onset), frames: [K]
    logp = frame_logits.log_softmax(dim=-1)[:, 1]          # [T]
    return logp.gather(0, frames)                          # [K]


if __name__ == "__main__":
    torch.manual_seed(0)
    T = 32
    clips = [torch.randn(T, 8) for _ in range(2)]
    onsets = [np.array([0.3, 0.7, 1.2, 2.3]), np.array([0.6, 1.4, 2.9, 0.5])]
    ds = OnsetDataset(clips, onsets)
    head = torch.nn.Linear(8, 2)
    for i in range(len(ds)):
        feats, frames = ds[i]
        with torch.no_grad():
            lp = onset_logprob(head(feats), frames)
        print("frames", frames.tolist(), "onset logprob", [round(v, 3) for v in lp.tolist()])

import torch
from torch.utils.data import Dataset


class OnsetClipDataset(Dataset):
    """Audio clips with annotated note onsets.

    Each item returns:
        frames: FloatTensor of shape (num_frames, n_mels), log-mel frames at `frame_rate` Hz.
        onset_frames: list of frame positions (one per annotated onset).
    """

    def __init__(self, clips, onsets_sec, frame_rate=100):
        self.clips = clips
        self.onsets_sec = onsets_sec
        self.frame_rate = frame_rate

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        onset_frames = [t * self.frame_rate for t in self.onsets_sec[i]]
        return self.clips[i], onset_frames


def onset_embeddings(frames, onset_frames):
    """Pick the frame vector at every onset.

    Args:
        frames: (num_frames, n_mels) tensor.
        onset_frames: list of K frame positions.
    Returns:
        (K, n_mels) tensor of the frames at the onsets.
    """
    return frames[onset_frames]


if __name__ == "__main__":
    torch.manual_seed(0)
    clip = torch.arange(60 * 4, dtype=torch.float32).view(60, 4)
    ds = OnsetClipDataset([clip], [[0.07, 0.29, 0.57]], frame_rate=100)
    frames, onset_frames = ds[0]
    emb = onset_embeddings(frames, onset_frames)
    print("onset frames:", onset_frames)
    print("picked rows :", (emb[:, 0] / 4).long().tolist())

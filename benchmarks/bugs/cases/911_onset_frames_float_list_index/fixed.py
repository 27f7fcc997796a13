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
        onset_frames = [round(t * self.frame_rate) for t in self.onsets_sec[i]]
        return self.clips[i], onset_frames


def onset_embeddings(frames, onset_frames):
    """Pick the frame vector at every onset.

    Args:
        frames: (num_frames, n_mels) tensor.
        onset_frames: list of K frame positions.
    Returns:
        (K, n_mels) tensor of the frames at the onsets.
    """
    index = torch.as_tensor(onset_frames, dtype=torch.long)
    return frames.index_select(0, index)


if __name__ == "__main__":
    torch.manual_seed(0)
    clip = torch.arange(60 * 4, dtype=torch.float32).view(60, 4)
    ds = OnsetClipDataset([clip], [[0.07, 0.29, 0.57]], frame_rate=100)
    frames, onset_frames = ds[0]
    emb = onset_embeddings(frames, onset_frames)
    ref = torch.stack([frames[int(round(t * 100))] for t in [0.07, 0.29, 0.57]])
    assert torch.equal(emb, ref), (emb, ref)
    assert (emb[:, 0] / 4).long().tolist() == [7, 29, 57]
    print("ok")

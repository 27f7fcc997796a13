import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import Dataset, DataLoader


class VQGanVAE(nn.Module):
    def __init__(self, image_size=32, num_layers=2, codebook_size=512, dim=16):
        super().__init__()
        self.image_size = image_size
        self.num_layers = num_layers
        self.codebook = nn.Embedding(codebook_size, dim)
        self.encoder = nn.Sequential(
            nn.Conv2d(3, dim, 4, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(dim, dim, 4, stride=2, padding=1),
        )

    @torch.no_grad()
    def get_video_indices(self, video):
        b, f = video.shape[:2]
        frames = video.flatten(0, 1)
        z = self.encoder(frames).permute(0, 2, 3, 1)
        dist = (z.unsqueeze(-2) - self.codebook.weight).pow(2).sum(-1)
        indices = dist.argmin(dim=-1)
        return indices.view(b, f, *indices.shape[1:])


def convert_video_tensor_dataset_to_indices(*, vae, raw_video_dataset, num_frames, path):
    num_videos = len(raw_video_dataset)
    fmap_size = vae.image_size // (vae.num_layers ** 2)
    shape = (num_videos, num_frames * fmap_size * fmap_size)
    video_indices_memmap = np.memmap(path, mode='w+', dtype=np.int64, shape=shape)
    for ind in range(num_videos):
        _, video = raw_video_dataset[ind]
        indices = vae.get_video_indices(video.unsqueeze(0))
        video_indices_memmap[ind] = indices.flatten().cpu().numpy()
    video_indices_memmap.flush()
    del video_indices_memmap


class VideoIndicesDataset(Dataset):
    def __init__(self, *, videos_memmap_path, texts, vae, num_videos, num_frames):
        self.num_videos = num_videos
        fmap_size = vae.image_size // (vae.num_layers ** 2)
        self.videos_memmap = np.memmap(videos_memmap_path, mode='r', dtype=np.int64,
                                       shape=(num_videos, num_frames * (fmap_size ** 2)))
        self.texts = texts

    def __len__(self):
        return self.num_videos

    def __getitem__(self, idx):
        video = torch.from_numpy(self.videos_memmap[idx].copy())
        text = self.texts[idx]
        video = video.long()
        return text, video


class NUWA(nn.Module):
    def __init__(self, *, num_text_tokens=20, num_image_tokens=512, dim=64):
        super().__init__()
        self.text_embedding = nn.Embedding(num_text_tokens, dim)
        self.image_embedding = nn.Embedding(num_image_tokens, dim)
        self.video_bos = nn.Parameter(torch.randn(dim))
        self.transformer = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, 4, dim * 2, dropout=0.0, batch_first=True), num_layers=1)
        self.to_logits = nn.Linear(dim, num_image_tokens)

    def forward(self, *, text, video, return_loss=False):
        text_embeds = self.text_embedding(text).mean(dim=1, keepdim=True)
        frame_indices = video
        frame_indices_input = frame_indices[:, :-1] if return_loss else frame_indices
        frame_embeddings = self.image_embedding(frame_indices_input)
        bos = self.video_bos.expand(frame_embeddings.shape[0], 1, -1)
        tokens = torch.cat((bos, frame_embeddings), dim=1) + text_embeds
        causal = torch.triu(torch.ones(tokens.shape[1], tokens.shape[1], dtype=torch.bool), 1)
        logits = self.to_logits(self.transformer(tokens, mask=causal))
        if not return_loss:
            return logits
        return F.cross_entropy(logits.transpose(1, 2), frame_indices)


class RawVideos(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(1)
        self.videos = torch.randn(n, 4, 3, 32, 32, generator=g)
        self.texts = torch.randint(0, 20, (n, 3), generator=g)

    def __len__(self):
        return len(self.videos)

    def __getitem__(self, i):
        return self.texts[i], self.videos[i]


if __name__ == "__main__":
    torch.manual_seed(0)
    vae = VQGanVAE()
    raw = RawVideos(3)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'videos.memmap')
        convert_video_tensor_dataset_to_indices(vae=vae, raw_video_dataset=raw, num_frames=4, path=path)
        ds = VideoIndicesDataset(videos_memmap_path=path, texts=raw.texts, vae=vae, num_videos=3, num_frames=4)
        dl = DataLoader(ds, batch_size=3)
        text, video = next(iter(dl))
        for i in range(3):
            original = vae.get_video_indices(raw.videos[i:i + 1]).flatten().tolist()
            assert video[i].tolist() == original
        nuwa = NUWA()
        loss = nuwa(text=text, video=video, return_loss=True)
        emb = nuwa.image_embedding(video)
        for i in range(3):
            for t in range(video.shape[1]):
                assert torch.equal(emb[i, t], nuwa.image_embedding.weight[int(video[i, t])])
        logits = nuwa(text=text, video=video[:, :-1])
        total, count = 0.0, 0
        for i in range(3):
            for t in range(video.shape[1]):
                row = logits[i, t]
                total += (torch.logsumexp(row, 0) - row[int(video[i, t])]).item()
                count += 1
        assert abs(loss.item() - total / count) < 1e-4
        del ds, dl
        print("ok")

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor

AUDIO_TOKEN_ID = 99


class AudioEncoder(nn.Module):
    def __init__(self, n_mels: int, hidden: int):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, hidden, kernel_size=2, stride=2)
        self.conv2 = nn.Conv1d(hidden, hidden, kernel_size=2, stride=2)

    def forward(self, mel: Float[Tensor, "mels frames"]) -> Float[Tensor, "audio_tokens hidden"]:
        x = F.gelu(self.conv1(mel.unsqueeze(0)))
        return self.conv2(x).squeeze(0).transpose(0, 1)


def build_prompt(text_ids: list[int], mel_frames: int) -> Int[Tensor, "seq"]:
    num_audio_tokens = math.ceil(mel_frames / 4)
    return torch.tensor(text_ids[:2] + [AUDIO_TOKEN_ID] * num_audio_tokens + text_ids[2:])


def merge_audio_embeddings(
    inputs_embeds: Float[Tensor, "seq hidden"],
    input_ids: Int[Tensor, "seq"],
    audio_embeds: Float[Tensor, "audio_tokens hidden"],
) -> Float[Tensor, "seq hidden"]:
    positions = (input_ids == AUDIO_TOKEN_ID).nonzero().squeeze(1)
    index = positions.unsqueeze(1).expand(-1, inputs_embeds.size(1))
    return inputs_embeds.scatter(0, index, audio_embeds)


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden, n_mels, mel_frames = 16, 8, 234
    embed = nn.Embedding(128, hidden)
    encoder = AudioEncoder(n_mels, hidden)
    input_ids = build_prompt([1, 17, 40, 41, 42, 2], mel_frames)
    mel = torch.randn(n_mels, mel_frames)
    with torch.no_grad():
        merged = merge_audio_embeddings(embed(input_ids), input_ids, encoder(mel))
    print(merged.shape)

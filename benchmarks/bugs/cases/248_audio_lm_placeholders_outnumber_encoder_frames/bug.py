import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor

AUDIO_TOKEN_ID = 3
HOP_LENGTH = 160


class AudioEncoder(nn.Module):
    """Two stride-2 convolutions over mel frames: the output rate is a quarter of the mel rate."""

    def __init__(self, n_mels: int, d_model: int):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, d_model, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv1d(d_model, d_model, kernel_size=3, stride=2, padding=1)

    def forward(self, mel: Float[Tensor, "n_mels frames"]) -> Float[Tensor, "audio_tokens d_model"]:
        h = torch.relu(self.conv1(mel.unsqueeze(0)))
        return torch.relu(self.conv2(h)).squeeze(0).transpose(0, 1)


def num_audio_tokens(num_samples: int) -> int:
    mel_frames = num_samples // HOP_LENGTH + 1
    return mel_frames // 4 + 1


def build_prompt(text_ids: list[int], num_samples: int) -> list[int]:
    return [1] + [AUDIO_TOKEN_ID] * num_audio_tokens(num_samples) + text_ids


class AudioLM(nn.Module):
    def __init__(self, vocab_size: int, n_mels: int, d_model: int):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, d_model)
        self.audio_tower = AudioEncoder(n_mels, d_model)

    def merge_audio_features(
        self, input_ids: Int[Tensor, "batch seq"], audio_features: Float[Tensor, "audio_tokens d_model"]
    ) -> Float[Tensor, "batch seq d_model"]:
        inputs_embeds = self.embed_tokens(input_ids)
        audio_mask: Bool[Tensor, "batch seq d_model"] = (input_ids == AUDIO_TOKEN_ID).unsqueeze(-1).expand_as(inputs_embeds)
        return inputs_embeds.masked_scatter(audio_mask, audio_features)


def mel_frames_of(waveform: Float[Tensor, "samples"], n_mels: int) -> Float[Tensor, "n_mels frames"]:
    frames = waveform.size(0) // HOP_LENGTH + 1
    padded = nn.functional.pad(waveform, (0, frames * HOP_LENGTH - waveform.size(0)))
    return padded.view(frames, HOP_LENGTH)[:, :n_mels].transpose(0, 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AudioLM(vocab_size=30, n_mels=8, d_model=12)
    waveform = torch.randn(15840)
    mel = mel_frames_of(waveform, n_mels=8)
    input_ids = torch.tensor([build_prompt([10, 11, 12], waveform.size(0))])
    with torch.no_grad():
        audio_features = model.audio_tower(mel)
        embeds = model.merge_audio_features(input_ids, audio_features)
    print("audio placeholders:", (input_ids == AUDIO_TOKEN_ID).sum().item(), "encoder frames:", audio_features.size(0))

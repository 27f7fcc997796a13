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
    num_audio_tokens = (mel_frames // 2) // 2
    return torch.tensor(text_ids[:2] + [AUDIO_TOKEN_ID] * num_audio_tokens + text_ids[2:])


def merge_audio_embeddings(
    inputs_embeds: Float[Tensor, "seq hidden"],
    input_ids: Int[Tensor, "seq"],
    audio_embeds: Float[Tensor, "audio_tokens hidden"],
) -> Float[Tensor, "seq hidden"]:
    positions = (input_ids == AUDIO_TOKEN_ID).nonzero().squeeze(1)
    index = positions.unsqueeze(1).expand(-1, inputs_embeds.size(1))
    return inputs_embeds.scatter(0, index, audio_embeds)


def reference_merge(inputs_embeds, input_ids, audio_embeds):
    out = inputs_embeds.clone()
    k = 0
    for p in range(input_ids.size(0)):
        if int(input_ids[p]) == AUDIO_TOKEN_ID:
            for h in range(out.size(1)):
                out[p, h] = audio_embeds[k, h]
            k += 1
    assert k == audio_embeds.size(0)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden, n_mels, mel_frames = 16, 8, 234
    embed = nn.Embedding(128, hidden)
    encoder = AudioEncoder(n_mels, hidden)
    input_ids = build_prompt([1, 17, 40, 41, 42, 2], mel_frames)
    mel = torch.randn(n_mels, mel_frames)
    with torch.no_grad():
        text = embed(input_ids)
        audio = encoder(mel)
        merged = merge_audio_embeddings(text, input_ids, audio)
        ref = reference_merge(text, input_ids, audio)
    assert torch.equal(merged, ref)
    print("ok")

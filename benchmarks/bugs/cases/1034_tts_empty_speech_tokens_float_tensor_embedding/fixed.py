import re

import torch
import torch.nn as nn

CONFIG = {"speech_vocab": 64, "flow_dim": 12, "mel_bins": 10, "token_mel_ratio": 2}


def split_sentences(text):
    return [s.strip() for s in re.split(r"(?<=[.!?])", text) if s.strip()]


def llm_generate(sentence, vocab, max_per_char=2):
    # stand-in for the autoregressive speech-token LM: punctuation-only
    # fragments produce no speech tokens at all
    letters = [c for c in sentence if c.isalnum()]
    g = torch.Generator().manual_seed(len(sentence))
    out = []
    for _ in letters:
        out.extend(torch.randint(0, vocab, (max_per_char,), generator=g).tolist())
    return out


class FlowDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.input_embedding = nn.Embedding(cfg["speech_vocab"], cfg["flow_dim"])
        self.proj = nn.Linear(cfg["flow_dim"], cfg["mel_bins"])
        self.ratio = cfg["token_mel_ratio"]

    def forward(self, token, token_len):
        mask = (torch.arange(token.shape[1]) < token_len.unsqueeze(1)).unsqueeze(-1)
        h = self.input_embedding(torch.clamp(token, min=0)) * mask
        h = h.repeat_interleave(self.ratio, dim=1)
        return self.proj(h)


def synthesize(text, flow, cfg):
    mels = []
    for sentence in split_sentences(text):
        tokens = llm_generate(sentence, cfg["speech_vocab"])
        speech_token = torch.tensor(tokens, dtype=torch.long).unsqueeze(0)
        speech_len = torch.tensor([speech_token.shape[1]])
        mels.append(flow(speech_token, speech_len))
    return torch.cat(mels, dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    flow = FlowDecoder(CONFIG)
    text = "Hello there. How are you today? ..."
    with torch.no_grad():
        mel = synthesize(text, flow, CONFIG)
        rows = []
        for sentence in split_sentences(text):
            for tok in llm_generate(sentence, CONFIG["speech_vocab"]):
                row = flow.proj(flow.input_embedding.weight[tok])
                rows.extend([row] * CONFIG["token_mel_ratio"])
        ref = torch.stack(rows).unsqueeze(0)
    assert mel.shape == ref.shape and torch.allclose(mel, ref, atol=1e-6)
    print("ok")

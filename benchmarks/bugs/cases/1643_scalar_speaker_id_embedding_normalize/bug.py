import torch
import torch.nn as nn
import torch.nn.functional as F


class SpeakerConditionedEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg["num_chars"], cfg["hidden_channels"])
        self.emb_g = nn.Embedding(cfg["num_speakers"], cfg["speaker_embedding_channels"])
        self.cond = nn.Conv1d(cfg["speaker_embedding_channels"], cfg["hidden_channels"], 1)
        self.proj = nn.Conv1d(cfg["hidden_channels"], cfg["out_channels"], 1)

    def _speaker_embedding(self, aux_input):
        g = None
        if aux_input is not None and "speaker_ids" in aux_input:
            g = aux_input["speaker_ids"]
        if g is not None:
            g = F.normalize(self.emb_g(g)).unsqueeze(-1)
        return g

    def inference(self, x, aux_input=None):
        g = self._speaker_embedding(aux_input)
        h = self.emb(x).transpose(1, 2)
        if g is not None:
            h = h + self.cond(g)
        return self.proj(h)


def text_to_ids(text, symbols):
    return torch.tensor([[symbols.index(c) for c in text]])


def synthesize(model, text, symbols, speaker_idx=None):
    aux_input = {}
    if speaker_idx is not None:
        aux_input["speaker_ids"] = torch.tensor(speaker_idx)
    with torch.no_grad():
        return model.inference(text_to_ids(text, symbols), aux_input)


if __name__ == "__main__":
    torch.manual_seed(0)
    symbols = list("_ abcdefghijklmnopqrstuvwxyz")
    cfg = {"num_chars": len(symbols), "hidden_channels": 32, "speaker_embedding_channels": 16,
           "num_speakers": 4, "out_channels": 20}
    model = SpeakerConditionedEncoder(cfg).eval()
    out = synthesize(model, "selamat sore", symbols, speaker_idx=2)
    print("output", tuple(out.shape))

import torch
import torch.nn as nn


class SpeechTokenLM(nn.Module):
    """Autoregressive text -> speech-token model; the last class is the end-of-speech token."""

    def __init__(self, text_vocab, speech_vocab, dim):
        super().__init__()
        self.speech_vocab = speech_vocab
        self.eos = speech_vocab
        self.text_embedding = nn.Embedding(text_vocab, dim)
        self.speech_embedding = nn.Embedding(speech_vocab + 1, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.head = nn.Linear(dim, speech_vocab + 1)

    @torch.no_grad()
    def inference(self, text, max_len=12):
        h = self.text_embedding(text).mean(dim=1)
        prev = torch.full((1,), self.eos, dtype=torch.long)
        for _ in range(max_len):
            h = self.cell(self.speech_embedding(prev), h)
            top = self.head(h).argmax(dim=-1)
            if top.item() == self.eos:
                break
            yield top.item()
            prev = top


class FlowDecoder(nn.Module):
    def __init__(self, speech_vocab, mel_dim):
        super().__init__()
        self.input_embedding = nn.Embedding(speech_vocab, 24)
        self.proj = nn.Linear(24, mel_dim)

    @torch.no_grad()
    def inference(self, token, token_len):
        mask = (torch.arange(token.shape[1]).unsqueeze(0) < token_len.unsqueeze(1)).unsqueeze(-1)
        token = self.input_embedding(torch.clamp(token, min=0)) * mask
        return self.proj(token)


class TTSModel:
    def __init__(self, llm, flow):
        self.llm = llm
        self.flow = flow
        self.tts_speech_token = {}

    def tts(self, uuid, text):
        self.tts_speech_token[uuid] = []
        for token in self.llm.inference(text):
            self.tts_speech_token[uuid].append(token)
        this_tts_speech_token = torch.tensor(self.tts_speech_token[uuid]).unsqueeze(dim=0)
        token_len = torch.tensor([this_tts_speech_token.shape[1]])
        return self.flow.inference(this_tts_speech_token, token_len)


if __name__ == "__main__":
    torch.manual_seed(0)
    llm = SpeechTokenLM(text_vocab=100, speech_vocab=64, dim=32)
    with torch.no_grad():
        llm.head.bias[llm.eos] += 0.3
    model = TTSModel(llm, FlowDecoder(speech_vocab=64, mel_dim=20))
    prompts = {
        "utt-0": torch.tensor([[5, 17, 42, 8]]),
        "utt-1": torch.tensor([[3, 3, 91]]),
        "utt-2": torch.tensor([[12, 40]]),
        "utt-3": torch.tensor([[77, 2, 9, 31, 4]]),
    }
    for uuid, text in prompts.items():
        mel = model.tts(uuid, text)
        print(uuid, "speech tokens:", model.tts_speech_token[uuid], "mel frames:", mel.shape[1])

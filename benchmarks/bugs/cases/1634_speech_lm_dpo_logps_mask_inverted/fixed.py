import torch
import torch.nn as nn

IGNORE_ID = -1


class SpeechTokenLM(nn.Module):
    """Tiny text-to-speech-token LM: text prompt followed by speech tokens."""

    def __init__(self, vocab_size=40, speech_token_size=24, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.llm_decoder = nn.Linear(hidden, speech_token_size + 3)
        nn.init.normal_(self.llm_decoder.weight, std=1.0)

    def forward(self, tokens):
        # tokens: (B, T)
        h, _ = self.rnn(self.embed(tokens))  # (B, T, H)
        return self.llm_decoder(h)  # (B, T, V)


def sequence_logps(logits, lm_target):
    # logits: (B, T, V)   lm_target: (B, T), IGNORE_ID on the prompt and on padding
    lm_mask = lm_target != IGNORE_ID  # (B, T), True on the speech tokens that are scored
    logps = torch.gather(logits.log_softmax(dim=-1), dim=2, index=lm_target.masked_fill(~lm_mask, 0).unsqueeze(dim=-1)).squeeze(dim=-1)  # (B, T)
    return (logps * lm_mask).sum(dim=-1) / lm_mask.sum(dim=-1)  # (B,)


def dpo_logps(model, chosen_input, chosen_target, rejected_input, rejected_target):
    logits = model(torch.cat([chosen_input, rejected_input], dim=0))  # (2B, T, V)
    b = chosen_input.size(0)
    chosen_logps = sequence_logps(logits[:b], chosen_target)
    rejected_logps = sequence_logps(logits[b:], rejected_target)
    return chosen_logps, rejected_logps


def make_pair(prompt_len, speech_lens, total_len, g, speech_token_size=24, text_offset=27):
    inputs, targets = [], []
    for n in speech_lens:
        prompt = torch.randint(text_offset, 40, (prompt_len,), generator=g)
        speech = torch.randint(0, speech_token_size, (n,), generator=g)
        seq = torch.cat([prompt, speech, torch.zeros(total_len - prompt_len - n, dtype=torch.long)])
        tgt = torch.full((total_len,), IGNORE_ID)
        # position t predicts token t + 1: targets start at the last prompt position
        tgt[prompt_len - 1 : prompt_len - 1 + n] = speech
        inputs.append(seq)
        targets.append(tgt)
    return torch.stack(inputs), torch.stack(targets)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = SpeechTokenLM()
    chosen_in, chosen_tgt = make_pair(5, [9, 6], 18, g)
    rejected_in, rejected_tgt = make_pair(5, [11, 4], 18, g)
    with torch.no_grad():
        chosen, rejected = dpo_logps(model, chosen_in, chosen_tgt, rejected_in, rejected_tgt)
        ref = []
        for inp, tgt in ((chosen_in, chosen_tgt), (rejected_in, rejected_tgt)):
            lp = model(inp).log_softmax(-1)
            for i in range(inp.size(0)):
                vals = [lp[i, t, tgt[i, t]].item() for t in range(inp.size(1)) if tgt[i, t] != IGNORE_ID]
                ref.append(sum(vals) / len(vals))
    assert torch.allclose(chosen, torch.tensor(ref[:2]), atol=1e-5), (chosen, ref[:2])
    assert torch.allclose(rejected, torch.tensor(ref[2:]), atol=1e-5), (rejected, ref[2:])
    print("ok")

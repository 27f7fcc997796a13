import torch


class ToyChatTokenizer:
    """Base vocabulary of 50 pieces plus chat-template tokens appended after it."""

    vocab_size = 50  # base vocabulary only
    added_tokens = {"<|im_start|>": 50, "<|im_end|>": 51, "<|user|>": 52}

    def __len__(self):
        return self.vocab_size + len(self.added_tokens)

    def encode_chat(self, ids):
        return [50, 52] + ids + [51]


class POSTagTokenSampler:
    """Replaces tokens by random tokens that share the same part-of-speech tag."""

    def __init__(self, tokenizer, pos_of_id, num_tags):
        # id2pos: [vocab] -> POS tag of every token id
        self.id2pos = torch.zeros(len(tokenizer), dtype=torch.long)
        for tok_id, tag in pos_of_id.items():
            self.id2pos[tok_id] = tag
        self.num_tags = num_tags

    def __call__(self, input_ids, generator):
        # input_ids: [batch, seq]
        pos = self.id2pos[input_ids]  # [batch, seq]
        same_tag = pos.unsqueeze(-1) == self.id2pos.view(1, 1, -1)  # [batch, seq, vocab]
        weights = same_tag.float()
        flat = torch.multinomial(weights.view(-1, weights.shape[-1]), 1, generator=generator)
        return flat.view_as(input_ids), pos


if __name__ == "__main__":
    tok = ToyChatTokenizer()
    g = torch.Generator().manual_seed(0)
    pos_of_id = {i: i % 4 for i in range(tok.vocab_size)}
    sampler = POSTagTokenSampler(tok, pos_of_id, num_tags=4)
    batch = torch.tensor([tok.encode_chat([3, 17, 8, 41]), tok.encode_chat([9, 9, 12, 30])])
    repl, pos = sampler(batch, g)
    for b in range(batch.shape[0]):
        for t in range(batch.shape[1]):
            expected = pos_of_id.get(int(batch[b, t]), 0)
            assert int(pos[b, t]) == expected
            assert pos_of_id.get(int(repl[b, t]), 0) == expected
    print("ok")

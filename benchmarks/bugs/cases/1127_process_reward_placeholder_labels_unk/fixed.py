import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset


class WordTokenizer:
    def __init__(self, words):
        self.vocab = {"<unk>": 0, "<pad>": 1}
        for w in words:
            self.vocab.setdefault(w, len(self.vocab))
        self.unk_token_id = 0
        self.pad_token_id = 1

    def add_special_tokens(self, tokens):
        for t in tokens:
            self.vocab.setdefault(t, len(self.vocab))

    def convert_tokens_to_ids(self, token):
        return self.vocab.get(token, self.unk_token_id)

    def __call__(self, text):
        return [self.vocab.get(w, self.unk_token_id) for w in text.split()]


class ProcessRewardDataset(Dataset):
    def __init__(self, samples, tokenizer, config):
        self.samples = samples
        self.tokenizer = tokenizer
        self.placeholder_token = config["placeholder_token"]
        self.reward_tokens = config["reward_tokens"]
        tokenizer.add_special_tokens([self.placeholder_token])
        self.placeholder_token_id = tokenizer.convert_tokens_to_ids(self.placeholder_token)
        self.ignore_index = config["ignore_index"]

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        text, step_labels = self.samples[idx]
        input_ids = torch.tensor(self.tokenizer(text))
        label_tokens = [self.tokenizer.convert_tokens_to_ids(self.reward_tokens[l]) for l in step_labels]
        labels = torch.full_like(input_ids, self.ignore_index)
        labels[input_ids == self.placeholder_token_id] = torch.tensor(label_tokens, dtype=input_ids.dtype)
        return input_ids, labels


def collate(batch, pad_id, ignore_index):
    ids = pad_sequence([b[0] for b in batch], batch_first=True, padding_value=pad_id)
    labels = pad_sequence([b[1] for b in batch], batch_first=True, padding_value=ignore_index)
    return ids, labels


def reference_labels(text, step_labels, tok, config):
    out, k = [], 0
    for w in text.split():
        if w == config["placeholder_token"]:
            out.append(tok.convert_tokens_to_ids(config["reward_tokens"][step_labels[k]]))
            k += 1
        else:
            out.append(config["ignore_index"])
    return out


if __name__ == "__main__":
    config = {"placeholder_token": "ки", "reward_tokens": {1: "+", 0: "-"}, "ignore_index": -100}
    tok = WordTokenizer("step one add two numbers then multiply by three done + -".split())
    samples = [
        ("step one add two numbers ки then multiply by three ки done ки", [1, 1, 0]),
        ("step one compute sqrt of nine ки done ки", [1, 1]),
    ]
    ds = ProcessRewardDataset(samples, tok, config)
    loader = DataLoader(ds, batch_size=2, collate_fn=lambda b: collate(b, tok.pad_token_id, -100))
    ids, labels = next(iter(loader))
    for b, (text, steps) in enumerate(samples):
        ref = reference_labels(text, steps, tok, config)
        assert labels[b, : len(ref)].tolist() == ref
        assert (labels[b, len(ref):] == -100).all()
    print("ok")

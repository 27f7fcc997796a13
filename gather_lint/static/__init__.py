"""The static half: parse, infer shapes per function, find sites, apply the contract."""

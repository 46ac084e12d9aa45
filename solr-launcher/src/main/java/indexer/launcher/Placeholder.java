package indexer.launcher;
class Placeholder {}

/**
 * The zero-configuration demo's own piece: Kopek (kopek-server's classes) plus the acquirer simulator started
 * in-process, packaged as kopek-demo-0.1.0-SNAPSHOT.jar, which {@code ./kopek} runs.
 */
package dev.kopek.demo;

'use client';

/**
 * The chat's panels and name: the sidebar (open on phones, reloaded after each answer and once a
 * new conversation is stored), Settings, the datasets dialog, and the one name the header and the
 * conversation's row in the list show.
 */
import type { ChatStatus, UIMessage } from 'ai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { questionText, shownTitle } from '@/lib/messages/shown-title';

/** Until a title is generated, the first question names the conversation (lib/messages/shown-title.ts). */
function firstQuestion(messages: UIMessage[]): string | null {
  const first = messages.find((m) => m.role === 'user');
  return first ? questionText(first.parts) : null;
}

export function useChatPanels({ title, messages, status, stored }: { title: string | null; messages: UIMessage[]; status: ChatStatus; stored: boolean }) {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  /** The title the conversation list holds (generated after the first answer, or renamed there). */
  const [listedTitle, setListedTitle] = useState<string | null>(null);
  /** What the header and the conversation's row in the list show: one name at every moment. */
  const shownName = shownTitle(listedTitle ?? title, firstQuestion(messages));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [datasetsOpen, setDatasetsOpen] = useState(false);
  const openDatasets = useCallback(() => setDatasetsOpen(true), []);
  const closeDatasets = useCallback(() => setDatasetsOpen(false), []);
  // The sidebar reloads after each answer (a generated title appears), and once a new
  // conversation is stored (it is listed while its first answer is still coming).
  const [sidebarVersion, setSidebarVersion] = useState(0);
  const previousStatus = useRef(status);
  useEffect(() => {
    // After a failed answer too: a new conversation that holds nothing else leaves the list.
    if (previousStatus.current !== status && (status === 'ready' || status === 'error')) setSidebarVersion((v) => v + 1);
    previousStatus.current = status;
  }, [status]);
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const openSidebar = useCallback(() => setSidebarOpen(true), []);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);
  return {
    shownName,
    setListedTitle,
    sidebar: { open: sidebarOpen, refreshKey: sidebarVersion + (stored ? 1 : 0), onOpen: openSidebar, onClose: closeSidebar },
    settings: { open: settingsOpen, onOpen: openSettings, onClose: closeSettings },
    datasets: { open: datasetsOpen, onOpen: openDatasets, onClose: closeDatasets },
  };
}
